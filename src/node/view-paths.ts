// validate with a view table: which view and entry a reference falls under (mappedBy), and where this machine
// holds the file, trying the machine view's prefixes in their fallback order. Network references are never fetched.
import { utf8Escapes } from '../package/names.js';
import path from 'node:path';
import { fileUrlToPath, PathConversionError } from '../paths/convert.js';
import type { TicketReference } from '../ticket/validate.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import { mapReference } from '../views/map.js';
import type { ViewTable } from '../views/types.js';
import type { RuleCode } from '../rules/codes.js';
import { isNetworkScheme, notInViewProblem, remoteProblem } from '../rules/views.js';

export interface FileProblem {
  code: RuleCode;
  args: Record<string, string>;
}

export interface ViewLookupOptions {
  views?: ViewTable;
  checkExists: boolean;
  /** The ticket's own URL: its folder is what a "./" entry stands for. */
  documentUri?: string;
  /** The ticket's charset: a single-byte one's escaped octets name characters (JDF appendix section 3). */
  charset?: string;
}

/** A file URL as a path on this machine (made absolute), or null when it names none here. */
export function localPathHere(url: string): string | null {
  try {
    return path.resolve(fileUrlToPath(url, { platform: process.platform === 'win32' ? 'windows' : 'posix' }));
  } catch (error) {
    if (error instanceof PathConversionError) return null;
    throw error;
  }
}

/**
 * Looks a reference up through the view table. Returns undefined when the table does not concern it (the
 * caller goes on as without views), else the problem to report (null: none). Sets `ref.mappedBy`.
 */
export async function lookThroughViews(ref: TicketReference, options: ViewLookupOptions, examine: (local: string) => Promise<FileProblem | null>): Promise<FileProblem | null | undefined> {
  if (ref.resolved === null) return undefined;
  const mapped = options.views ? mapReference(utf8Escapes(ref.resolved, options.charset ?? 'utf-8'), options.views, localPathHere, options.documentUri) : null;
  if (mapped) {
    const mappedBy = mapped.mappedBy;
    ref.mappedBy = mappedBy;
    let first: { path: string; entry: string; problem: FileProblem | null } | undefined;
    for (const candidate of mapped.local) {
      const problem = await examine(candidate.path);
      first ??= { ...candidate, problem };
      if (problem === null) {
        Object.assign(mappedBy, { path: candidate.path, machineEntry: candidate.entry });
        return null;
      }
    }
    if (!first) return options.checkExists ? notInViewProblem(mappedBy, mapped.machine) : null;
    Object.assign(mappedBy, { path: first.path, machineEntry: first.entry });
    return first.problem;
  }
  const ref3986 = parseReference(ref.resolved);
  const scheme = ref3986.scheme?.toLowerCase();
  if (scheme !== undefined && isNetworkScheme(scheme)) {
    const host = ref3986.authority !== undefined ? parseAuthority(ref3986.authority).host : '';
    return options.checkExists ? remoteProblem(scheme, host) : null;
  }
  return undefined;
}
