import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

export interface PackageLimits extends MultipartLimits, ZipLimits {
  /** Packages inside packages are read to this depth (default 3). */
  maxDepth: number;
  /** A nested package is read from memory, up to this size (default 64 MiB). */
  maxNestedBytes: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = { ...DEFAULT_MULTIPART_LIMITS, ...DEFAULT_ZIP_LIMITS, maxDepth: 3, maxNestedBytes: 64 * 1024 * 1024 };
