import type { GatherLimits } from './gather.js';
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

/**
 * The default size limit of one ticket (--max-bytes): half of what one JavaScript string holds (0x1fffffe8
 * characters on 64-bit Node 20), so decoding, the element table and the report all fit. A ticket part of a
 * package is read up to it too, and a zip on a stream is buffered up to it.
 */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

export interface PackageLimits extends MultipartLimits, ZipLimits {
  /** Packages inside packages are read to this depth (default 3). */
  maxDepth: number;
  /** A nested package is read from memory, up to this size (default 64 MiB). */
  maxNestedBytes: number;
  /**
   * The parts read whole (ticket parts and nested packages), one at a time, all together: past this, the next
   * is reported and not read (default 256 MiB, and never less than maxBytes, so one ticket as big as a ticket
   * file may be always fits). It bounds the time one package takes and the size of its reports.
   */
  maxReadBytes: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = { ...DEFAULT_MULTIPART_LIMITS, ...DEFAULT_ZIP_LIMITS, maxDepth: 3, maxNestedBytes: 64 * 1024 * 1024, maxReadBytes: DEFAULT_MAX_BYTES };

/** What the gatherer reads whole: a ticket up to --max-bytes, a nested package up to its limit, all of them up to maxReadBytes. */
export function gatherLimits(limits: PackageLimits, maxBytes: number | undefined): GatherLimits {
  const maxTicket = maxBytes ?? DEFAULT_MAX_BYTES;
  return { maxTicket, maxNested: limits.maxNestedBytes, maxTotal: Math.max(limits.maxReadBytes, maxTicket) };
}
