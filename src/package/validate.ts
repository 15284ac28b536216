// validatePackage: opens a MIME (RFC 2046, RFC 2387) or zip package, validates every ticket in it, and checks
// the package against its tickets: every cid: names a part, every part is used, every relative reference
// inside a zip names an entry. Streams: only ticket parts (and small nested packages) are held in memory.
// This file is the entry and the report's shape; mime-package.ts and zip-package.ts read each family, gather.ts
// holds parts as they stream, checks.ts checks the package against its tickets.
import type { RuleCode } from '../rules/codes.js';
import { createFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import type { LocatedFinding, TicketReport, ValidateOptions } from '../ticket/validate.js';
import { concat } from './bytes.js';
import type { PackageKind } from './detect.js';
import type { PackageLimits } from './limits.js';
import type { Sniffed } from './magic.js';
import { validateMime } from './mime-package.js';
import { bytesAccess, isZip, type RandomAccess } from './zip.js';
import { validateZip } from './zip-package.js';

export { detectPackage, type PackageKind } from './detect.js';

export type PackageInput = Uint8Array | RandomAccess | AsyncIterable<Uint8Array>;

export interface PackageOptions extends ValidateOptions {
  /** The package's own URI: MIME tickets resolve relative references against its folder, zip tickets inside it. */
  documentUri?: string;
  /** The Content-Type of a MIME body that comes without its header (an HTTP POST). */
  contentType?: string;
  limits?: Partial<PackageLimits>;
}

export interface PartSummary {
  /** Content-ID in angle brackets, else Content-Location, file name or "part N"; a zip entry's name. */
  name: string;
  contentId?: string;
  location?: string;
  contentType?: string;
  /** Decoded (MIME) or uncompressed (zip, as declared) size in bytes. */
  size: number;
  /** What its first bytes are: pdf, tiff, jpeg, png, zip, xml. */
  sniffed?: Sniffed;
  /** Validated as a ticket. */
  ticket: boolean;
  root?: boolean;
}

export interface PackageFile extends TicketReport {
  /** The part a ticket report is for (absent on the package's own report). */
  part?: string;
  package?: { kind: PackageKind; parts: PartSummary[] };
}

export interface PackageReport {
  kind: PackageKind;
  parts: PartSummary[];
  /** The package's own findings first (structure, parts), then one report per ticket part. */
  files: PackageFile[];
}

/**
 * Validates a package given as bytes, a random-access source (zip or MIME) or a stream of chunks (MIME; a zip
 * on a stream is read into memory up to maxBytes). Never throws on bad input: it comes back as findings.
 */
export async function validatePackage(input: PackageInput, options: PackageOptions = {}, depth = 0): Promise<PackageReport> {
  if (input instanceof Uint8Array) {
    return isZip(input) ? validateZip(bytesAccess(input), options, depth) : validateMime(once(input), options, depth);
  }
  if ('read' in input) {
    const head = await input.read(0, 4);
    return isZip(head) ? validateZip(input, options, depth) : validateMime(chunksOf(input), options, depth);
  }
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head: Uint8Array = first.done ? new Uint8Array(0) : first.value;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  if (!isZip(head)) return validateMime(prepend(head, rest), options, depth);
  const max = options.maxBytes ?? 512 * 1024 * 1024;
  const chunks = [head];
  let size = head.length;
  for await (const c of rest) {
    size += c.length;
    if (size > max) {
      const report = emptyReport('zip');
      report.files[0]!.findings.push(finding('package-limit', options.profile, { what: `a zip on a stream is read into memory, and this one is over ${max} bytes (--max-bytes)` }, { line: 1, column: 1 }));
      return report;
    }
    chunks.push(c);
  }
  return validateZip(bytesAccess(concat(chunks, size)), options, depth);
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < bytes.length; at += STEP) yield bytes.subarray(at, at + STEP);
}

async function* prepend(head: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  yield head;
  yield* rest;
}

async function* chunksOf(src: RandomAccess): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < src.size; at += STEP) yield await src.read(at, Math.min(STEP, src.size - at));
}

function finding(code: string, profile: Profile | undefined, args: Record<string, string | number>, at: { line: number; column: number }): LocatedFinding {
  return createFinding(code as RuleCode, args, { profile: profile ?? 'jdf', at });
}

function emptyReport(kind: PackageKind): PackageReport {
  const parts: PartSummary[] = [];
  return { kind, parts, files: [{ encoding: kind === 'mime' ? 'MIME' : 'ZIP', references: [], findings: [], package: { kind, parts } }] };
}

// Shared with mime-package.ts, zip-package.ts and checks.ts.
export { emptyReport, finding };
