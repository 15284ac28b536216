// The package rules' decisions over what the MIME and zip readers read (src/package/): each function takes the
// facts a reader gathered and returns the findings' codes and args, so the readers only read. The rules
// themselves (their words, specs and examples) are in package.ts; zipEntryProblems is there too.
import type { RuleCode } from './codes.js';

/** A finding the reader places: its code and args. */
export interface PackageProblem {
  code: RuleCode;
  args: Record<string, string | number>;
}

const missing = (detail: string): PackageProblem => ({ code: 'mime-boundary-missing', args: { detail } });

/** RFC 2046 5.1.1: boundary := 0*69<bchars> bcharsnospace, bchars := DIGIT / ALPHA / "'()+_,-./:=?" and space. */
export function boundaryProblem(boundary: string): string | null {
  if (boundary.length === 0) return 'it is empty';
  if (boundary.length > 70) return `it is ${boundary.length} characters long, more than 70`;
  const bad = /[^0-9A-Za-z'()+_,\-./:=? ]/.exec(boundary);
  if (bad) return `it holds '${bad[0]}', which a boundary may not`;
  if (boundary.endsWith(' ')) return 'it ends with a space';
  return null;
}

/** The package's Content-Type as the reader found it: its type (null when there is none) and boundary parameter. */
export interface BoundaryFacts {
  type: string | null;
  boundary: string | undefined;
}

/** RFC 2046 5.1.1: a multipart Content-Type with a boundary that follows the syntax. */
export function boundaryProblems(f: BoundaryFacts): PackageProblem[] {
  if (f.type === null || !f.type.startsWith('multipart/')) return [missing(f.type === null ? 'there is no multipart Content-Type' : `the Content-Type is ${f.type}, not multipart`)];
  if (f.boundary === undefined) return [missing(`the ${f.type} Content-Type has no boundary parameter`)];
  const problem = boundaryProblem(f.boundary);
  return problem ? [{ code: 'mime-boundary-invalid', args: { boundary: f.boundary, problem } }] : [];
}

/** RFC 2046 5.1.1: a body that starts with a delimiter line has no header; its boundary is taken from that line. */
export function firstLineBoundary(boundary: string): PackageProblem {
  return missing(`the package has no Content-Type header; the boundary "${boundary}" is taken from its first line`);
}

/** Where the multipart reader was when the package ended, and the boundary it had (if any). */
export interface MimeEndFacts {
  state: 'top' | 'preamble' | 'headers' | 'body' | 'epilogue' | 'stopped';
  boundary: string | undefined;
}

/** RFC 2046 5.1.1: a package ends after its close delimiter, and has one delimiter at least. */
export function mimeEndProblem(f: MimeEndFacts): PackageProblem | null {
  if (f.state === 'top' || f.state === 'preamble') {
    if (f.boundary !== undefined) return missing(`the boundary "${f.boundary}" never appears in the body, so the package has no parts`);
    return f.state === 'top' ? missing('the header never ends') : null;
  }
  if (f.state === 'headers' || f.state === 'body') return { code: 'mime-unclosed', args: { boundary: f.boundary ?? '' } };
  return null;
}

/** RFC 2045 6.1: a part's Content-Transfer-Encoding, and whether the reader could decode it (it decodes the defined ones). */
export function transferEncodingProblem(encoding: string, decoded: boolean): PackageProblem | null {
  return decoded ? null : { code: 'mime-unknown-encoding', args: { encoding } };
}

/** RFC 2045 6.8: how a part's base64 body ended. */
export function base64Problem(part: string, problem: 'truncated' | 'invalid-chars' | undefined): PackageProblem | null {
  if (problem === 'truncated') return { code: 'base64-truncated', args: { part } };
  if (problem === 'invalid-chars') return { code: 'base64-invalid-chars', args: { part } };
  return null;
}

/** RFC 2387 3.2: the start parameter (undefined when absent), whether a part has its Content-ID, and how many parts there are. */
export function startProblem(start: string | undefined, named: boolean, parts: number): PackageProblem | null {
  if (start === undefined) return { code: 'mime-start-missing', args: {} };
  if (!named && parts > 0) return { code: 'mime-start-wrong', args: { start } };
  return null;
}

/** RFC 2045 7: a Content-ID a part shares with an earlier one (its name and line). */
export function duplicateIdProblem(id: string, name: string, first: { name: string; line: number }): PackageProblem {
  return { code: 'duplicate-content-id', args: { id, first: first.name === name ? `an earlier part (line ${first.line})` : first.name } };
}

/** What the package's root is when it is not a ticket (a media type, or words for what it is); none when there is no root. */
export function rootNotTicket(part: string | undefined, what: string, kind: 'mime' | 'zip'): PackageProblem {
  if (part !== undefined) return { code: 'package-root-not-ticket', args: { part, what } };
  const none = kind === 'zip' ? 'missing: the zip has no .xjdf, .jdf, .xjmf or .jmf at its top level' : 'missing: the package has no parts';
  return { code: 'package-root-not-ticket', args: { part: '(none)', what: none } };
}

/** RFC 2387 3.1: a part nothing refers to (a zip's folder entries are not parts to refer to). */
export function unreferencedProblem(part: string, referenced: boolean, zip: boolean): PackageProblem | null {
  return referenced || (zip && part.endsWith('/')) ? null : { code: 'part-unreferenced', args: { part } };
}

/** RFC 2392 2: a cid: URL whose Content-ID no part has; JDF appendix 4.6: a relative name no entry has. */
export function partMissing(cid: string | undefined, name: string): PackageProblem {
  return cid !== undefined ? { code: 'cid-no-part', args: { id: cid } } : { code: 'file-missing', args: { path: `'${name}' inside the package` } };
}

/** What a part's Content-Type (or, in a zip, its name) declares and what its first bytes are: a kind, and how it is named. */
export interface KindFacts {
  kind: string;
  as: string;
}

/** RFC 2045 5: a part whose first bytes are not the signature of the kind it declares (none declared: nothing to hold it to). */
export function contentTypeProblem(part: string, declared: KindFacts | undefined, actual: KindFacts | undefined): PackageProblem | null {
  if (declared === undefined || declared.kind === actual?.kind) return null;
  return { code: 'content-type-mismatch', args: { part, declared: declared.as, actual: actual?.as ?? 'nothing we know' } };
}

/** The source the package came in failed while read (InputError's words). */
export function unreadableProblem(detail: string): PackageProblem {
  return { code: 'package-unreadable', args: { detail } };
}

/** Which limit a reader stopped at, and its figures. */
export type LimitFacts =
  | { limit: 'header'; whose: 'the package header' | 'a part header'; max: number }
  | { limit: 'parts'; max: number }
  | { limit: 'part-bytes'; max: number }
  | { limit: 'kept'; name: string; nested: boolean; max: number }
  | { limit: 'total'; name: string; nested: boolean; others: readonly string[]; before: number; max: number }
  | { limit: 'zip-entries'; count: number; max: number }
  | { limit: 'zip-directory'; bytes: number; count: number; max: number }
  | { limit: 'zip-entry'; name: string; size: number; read: number }
  | { limit: 'zip-stream'; max: number }
  | { limit: 'depth'; name: string; depth: number; max: number };

/** The package-limit finding for a limit a reader stopped at (jdf-filespec limits). */
export function limitProblem(f: LimitFacts): PackageProblem & { code: 'package-limit' } {
  return { code: 'package-limit', args: { what: limitWhat(f) } };
}

function limitWhat(f: LimitFacts): string {
  switch (f.limit) {
    case 'header': return `${f.whose} is longer than ${f.max} bytes`;
    case 'parts': return `the package has more than ${f.max} parts`;
    case 'part-bytes': return `a part is longer than ${f.max} bytes`;
    case 'kept': return f.nested ? `the nested package ${f.name} is over ${f.max} bytes and was not read` : `the part ${f.name} is over ${f.max} bytes (--max-bytes) and was not read as a ticket`;
    case 'total': {
      const rest = f.others.length > 0 ? ` (and ${f.others.length} more after it: ${f.others.slice(0, 3).join(', ')}${f.others.length > 3 ? ', ...' : ''})` : '';
      return `${f.nested ? 'the nested package' : 'the ticket part'} ${f.name}${rest}, since the tickets and nested packages read before it came to ${f.before} bytes, and one package's are read up to ${f.max} bytes in all (raise --max-bytes, or unpack the package and check the ticket on its own)`;
    }
    case 'zip-entries': return `the zip declares ${f.count} entries, more than ${f.max}; none was read`;
    case 'zip-directory': return `the zip's central directory is ${f.bytes} bytes for ${f.count} entries, more than ${f.max} (entry comments or padding make it so); none was read`;
    case 'zip-entry': return `the entry '${f.name}' is ${f.size} bytes, over the ${f.read} read from an entry of its kind`;
    case 'zip-stream': return `a zip on a stream is read into memory, and this one is over ${f.max} bytes (--max-bytes)`;
    case 'depth': return `${f.name} is a package nested ${f.depth} deep, deeper than ${f.max}`;
  }
}

/** What damage the zip directory's reader found (APPNOTE 4.3.16, 4.3.14-15, 4.3.12). */
export type ZipDamage =
  | { damage: 'no-end-record' | 'spanned' | 'zip64-outside' | 'zip64-missing' | 'directory-outside' | 'directory-too-large' }
  | { damage: 'entry'; entry: number; count: number };

const DAMAGE: Record<Exclude<ZipDamage['damage'], 'entry'>, string> = {
  'no-end-record': 'there is no end-of-central-directory record (the file is cut off or not a zip)',
  spanned: 'it is a multi-disk (spanned) archive',
  'zip64-outside': 'the ZIP64 end record lies outside the file',
  'zip64-missing': 'the ZIP64 end record is missing',
  'directory-outside': 'the central directory lies outside the file',
  'directory-too-large': 'the central directory is larger than its entries can be',
};

/** APPNOTE 4.3: a zip whose structure cannot be read. */
export function zipDamageProblem(f: ZipDamage): PackageProblem & { code: 'zip-malformed' } {
  return { code: 'zip-malformed', args: { detail: f.damage === 'entry' ? `central directory entry ${f.entry} of ${f.count} is damaged` : DAMAGE[f.damage] } };
}

/** An entry as it was inflated: the reader's error, or more bytes than its declared size (APPNOTE 4.4.8-9). */
export function zipReadProblems(name: string, size: number, error: string | undefined, oversize: boolean): PackageProblem[] {
  const problems: PackageProblem[] = [];
  if (error) problems.push({ code: 'zip-malformed', args: { detail: `the entry '${name}' cannot be read: ${error}` } });
  if (oversize) problems.push({ code: 'zip-bomb', args: { detail: `'${name}' inflates past its declared size of ${size} bytes` } });
  return problems;
}
