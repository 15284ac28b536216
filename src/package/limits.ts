// Every limit a package is read within, in one place with its reason. At run time it imports only the size limit
// of one ticket (src/rules/types.ts, where the ticket layer takes it from), so that the CLI's option tables can
// name these without loading a reader, or fflate.
import { DEFAULT_MAX_BYTES } from '../rules/types.js';
import type { GatherLimits } from './gather.js';

// A ticket part is read up to the size limit of one ticket.
export { DEFAULT_MAX_BYTES };

export interface MultipartLimits {
  /** A header block longer than this is not read (default 64 KiB). */
  maxHeaderBytes: number;
  /** More parts than this are not read (default 10,000). */
  maxParts: number;
  /** A part whose encoded body is longer than this stops the reading (default 2 GiB). */
  maxPartBytes: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxHeaderBytes: 64 * 1024, maxParts: 10_000, maxPartBytes: 2 * 1024 ** 3 };

export interface ZipLimits {
  /** More entries than this: the directory is not read (default 10,000). */
  maxEntries: number;
  /** Sum of the declared uncompressed sizes (default 16 GiB). */
  maxTotalBytes: number;
  /** Uncompressed / compressed, for entries over 1 MiB (default 100). */
  maxRatio: number;
  /**
   * A central directory larger than this is not read (default 16 MiB): it is read whole, and 10,000 entries
   * with names of 1,000 bytes and their extra fields come to about 11 MiB; only comments and padding make more.
   */
  maxDirectoryBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxTotalBytes: 16 * 1024 ** 3, maxRatio: 100, maxDirectoryBytes: 16 * 1024 * 1024 };

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
