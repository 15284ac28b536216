// The URL values of a folder of real tickets, as bench/real.ts takes them: for scripts/check-dump.ts and
// scripts/check-classes.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckOptions } from '../src/rules/types.js';
import { validateTicket } from '../src/ticket/validate.js';

/** Every URL value of the tickets a manifest lists (identifiers left out), with its options. */
export function corpusValues(dir: string): Array<{ value: string; options: CheckOptions }> {
  const files = (JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ stored: string }> }).files.map((f) => path.join(dir, f.stored));
  const values: Array<{ value: string; options: CheckOptions }> = [];
  for (const file of files) {
    const report = validateTicket(new Uint8Array(readFileSync(file)), { documentUri: pathToFileURL(file).href });
    const charset = report.encoding.toLowerCase().startsWith('utf-16') ? 'utf-8' : report.encoding.toLowerCase();
    for (const r of report.references) {
      if (r.role === 'identifier') continue;
      const options: CheckOptions = { role: r.role, charset };
      if (r.base !== null) options.base = r.base;
      if (report.jdfVersion !== undefined) options.jdfVersion = report.jdfVersion;
      values.push({ value: r.value, options });
    }
  }
  return values;
}
