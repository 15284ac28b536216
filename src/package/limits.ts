import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

export interface PackageLimits extends MultipartLimits, ZipLimits {
  /** Packages inside packages are read to this depth (default 3). */
  maxDepth: number;
  /** A nested package is read from memory, up to this size (default 64 MiB). */
  maxNestedBytes: number;
}

/**
 * The default size limit of one ticket (--max-bytes): half of what one JavaScript string holds (0x1fffffe8
 * characters on 64-bit Node 20), so decoding, the element table and the report all fit. A ticket part of a
 * package is read up to it too, and a zip on a stream is buffered up to it.
 */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = { ...DEFAULT_MULTIPART_LIMITS, ...DEFAULT_ZIP_LIMITS, maxDepth: 3, maxNestedBytes: 64 * 1024 * 1024 };
