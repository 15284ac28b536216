// validatePackage: opens a MIME (RFC 2046, RFC 2387) or zip package, validates every ticket in it, and checks
// the package against its tickets: every cid: names a part, every part is used, every relative reference
// inside a zip names an entry. Streams: only ticket parts (and small nested packages) are held in memory.
// This file is the entry and the report's shape; mime-package.ts and zip-package.ts read each family, gather.ts
// holds parts as they stream, checks.ts checks the package against its tickets.
import type { RuleCode } from '../rules/codes.js';
import { limitProblem, unreadableProblem } from '../rules/package-read.js';
import { createFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import type { LocatedFinding, TicketReport, ValidateOptions } from '../ticket/validate.js';
import type { PackageKind } from './detect.js';
import { DEFAULT_MAX_BYTES, type PackageLimits } from './limits.js';
import type { Sniffed } from './magic.js';
import { validateMime } from './mime-package.js';
import { buffered, classifyInput, InputError, peek, type PackageInput } from './input.js';
import { bytesAccess, isZip, type RandomAccess } from './zip.js';
import { validateZip } from './zip-package.js';

export { detectPackage, type PackageKind } from './detect.js';

export type { PackageInput } from './input.js';

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
 * on a stream is read into memory up to maxBytes). Never throws on bad input: it comes back as findings, and a
 * source that fails while it is read is `package-unreadable`. Only an argument that is none of the three (no
 * bytes, no async iterator, no numeric size with read()) is a TypeError.
 */
export async function validatePackage(input: PackageInput, options: PackageOptions = {}, depth = 0): Promise<PackageReport> {
  const given = classifyInput(input);
  if (given.kind === 'unknown') throw new TypeError(`validatePackage takes bytes, an AsyncIterable of bytes or { size, read(offset, length) }, not ${given.what}`);
  let kind: PackageKind = 'mime';
  try {
    if (given.kind === 'bytes') {
      if (isZip(given.bytes)) kind = 'zip';
      return await (kind === 'zip' ? validateZip(bytesAccess(given.bytes), options, depth) : validateMime(once(given.bytes), options, depth));
    }
    if (given.kind === 'random') {
      const access = guarded(given.access);
      if (isZip(await access.read(0, 4))) kind = 'zip';
      return await (kind === 'zip' ? validateZip(access, options, depth) : validateMime(chunksOf(access), options, depth));
    }
    const { head, all } = await peek(given.chunks);
    if (!isZip(head)) return await validateMime(all, options, depth);
    kind = 'zip';
    const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const whole = await buffered(all, max);
    if ('bytes' in whole) return await validateZip(bytesAccess(whole.bytes), options, depth);
    const report = emptyReport('zip');
    const over = limitProblem({ limit: 'zip-stream', max });
    report.files[0]!.findings.push(finding(over.code, options.profile, over.args, { line: 1, column: 1 }));
    return report;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const report = emptyReport(kind);
    const unreadable = unreadableProblem(error.message);
    report.files[0]!.findings.push(finding(unreadable.code, options.profile, unreadable.args, { line: 1, column: 1 }));
    return report;
  }
}

/** A random-access source whose failures are the input's, not ours. */
function guarded(src: RandomAccess): RandomAccess {
  return {
    size: src.size,
    async read(offset, length) {
      let got: unknown;
      try {
        got = await src.read(offset, length);
      } catch (error) {
        throw new InputError(`reading ${length} bytes at offset ${offset} failed (${error instanceof Error ? error.message : String(error)})`);
      }
      if (!(got instanceof Uint8Array)) throw new InputError(`read(${offset}, ${length}) gave ${got === null ? 'null' : `a ${typeof got}`}, not bytes`);
      return got;
    },
  };
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < bytes.length; at += STEP) yield bytes.subarray(at, at + STEP);
}

async function* chunksOf(src: RandomAccess): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < src.size; at += STEP) yield await src.read(at, Math.min(STEP, src.size - at));
}

function finding(code: RuleCode, profile: Profile | undefined, args: Record<string, string | number>, at: { line: number; column: number }): LocatedFinding {
  return createFinding(code, args, { profile: profile ?? 'jdf', at });
}

function emptyReport(kind: PackageKind): PackageReport {
  const parts: PartSummary[] = [];
  return { kind, parts, files: [{ encoding: kind === 'mime' ? 'MIME' : 'ZIP', references: [], findings: [], package: { kind, parts } }] };
}

// Shared with mime-package.ts, zip-package.ts and checks.ts.
export { emptyReport, finding };
