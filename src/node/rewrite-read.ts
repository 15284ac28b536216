// A ticket read to be rewritten, in place (fix, rebase) or elsewhere (relocate): decoded in its declared encoding
// and validated. A rewrite keeps every other byte, so a ticket that does not decode, or is not well-formed XML,
// is not rewritten. In place, the file is read only as a regular file and never through a symbolic link.
import type { Stats } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeTicket, type DecodedTicket } from '../ticket/decode.js';
import { validateTicket, type TicketReport, type ValidateOptions } from '../ticket/validate.js';
import { readRegularFile } from './read-regular.js';
import type { RuleCode } from '../rules/codes.js';

/** Findings after which the bytes are not one whole, well-formed document. */
const NOT_WELL_FORMED: readonly RuleCode[] = ['xml-malformed', 'xml-too-deep', 'file-too-large', 'duplicate-attribute'];

/** Why a ticket is not rewritten in place, in words (fix, rebase). */
export const UNFIT_IN_PLACE = { encoding: 'the file does not decode in its declared encoding', xml: 'the XML is not well-formed' };

/** The ticket's bytes, never through a symbolic link; or why not (`verb`: what to do to the file a link points at instead). */
export async function readInPlace(file: string, maxBytes: number, verb: string): Promise<{ bytes: Uint8Array; info: Stats } | { refused: string }> {
  let read;
  try {
    read = await readRegularFile(file, maxBytes, true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return { refused: `the ticket is a symbolic link; ${verb} the file it points at` };
    throw error;
  }
  if ('notRegular' in read) return { refused: `the ticket is ${read.notRegular}, not a regular file` };
  if ('tooLarge' in read) return { refused: `the file is ${read.tooLarge} bytes, over the limit` };
  return read;
}

/** Decoded and validated, with the file's own URL as its base; or unfit to rewrite, with what text there is. */
export function decodeToRewrite(bytes: Uint8Array, file: string, options: ValidateOptions): { decoded: DecodedTicket; report: TicketReport } | { unfit: keyof typeof UNFIT_IN_PLACE; text: string } {
  const decoded = decodeTicket(bytes);
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) return { unfit: 'encoding', text: decoded.text };
  const report = validateTicket(bytes, { ...options, documentUri: pathToFileURL(path.resolve(file)).href });
  const codes = new Set([...report.findings, ...report.references.flatMap((r) => r.findings)].map((f) => f.code));
  if (NOT_WELL_FORMED.some((c) => codes.has(c))) return { unfit: 'xml', text: decoded.text };
  return { decoded, report };
}
