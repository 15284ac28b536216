// The URL values of real tickets as the corpus section takes them (bench/real.ts; scripts/check-classes.ts and
// scripts/check-dump.ts read the same), the forms issue 33 names, and new URL as the contender uses it.
import { pathToFileURL } from 'node:url';
import { validateTicket } from '../src/index.js';
import type { CheckOptions } from '../src/rules/types.js';

export interface Value {
  value: string;
  base: string | undefined;
  options: CheckOptions;
}

/** Every URL value the validator reads in the tickets (identifiers left out), with the options it checked it under. */
export function valuesOf(files: Array<{ file: string; bytes: Uint8Array }>): Value[] {
  const values: Value[] = [];
  for (const { file, bytes } of files) {
    const report = validateTicket(bytes, { documentUri: pathToFileURL(file).href });
    const charset = report.encoding.toLowerCase().startsWith('utf-16') ? 'utf-8' : report.encoding.toLowerCase();
    for (const r of report.references) {
      if (r.role === 'identifier') continue;
      const options: CheckOptions = { role: r.role, charset };
      if (r.base !== null) options.base = r.base;
      if (report.jdfVersion !== undefined) options.jdfVersion = report.jdfVersion;
      values.push({ value: r.value, base: r.base ?? undefined, options });
    }
  }
  return values;
}

/** The forms issue 33 names as the costly ones, each value in the first that fits. */
export const FORMS: Array<[string, (v: string) => boolean]> = [
  ['backslash/UNC values', (v) => v.includes('\\')],
  ['raw non-ASCII values', (v) => /[^\x00-\x7f]/.test(v)],
  ['drive-letter values', (v) => /^(?:file:\/*(?:localhost\/)?)?\/?[A-Za-z][:|]/i.test(v)],
  ['other values', () => true],
];
export const formOf = (v: string) => FORMS.find(([, test]) => test(v))![0];

export const whatwg = (value: string, base: string | undefined) => {
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
};
