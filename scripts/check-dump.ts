// Writes checkUrl's whole answer (JSON: findings with code, severity, message, args, spec, offset, fix,
// suggestions; value, kind, scheme, host, local, resolved, fixed) for each value, one line per value, so two
// versions of the checker can be compared with `cmp`: `node dist/scripts/check-dump.js [--corpus DIR] [--random N] > FILE`.
// The corpus values are the URL values validateTicket reads in each ticket, with the options it checked them under
// (as bench/real.ts takes them); the random ones are test/check-inputs.ts's (seed 33).
import { readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkUrl } from '../src/check.js';
import type { CheckOptions } from '../src/rules/types.js';
import { validateTicket } from '../src/ticket/validate.js';
import { checkInputs } from '../test/check-inputs.js';

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

function main(argv: string[]): void {
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const corpus = at('--corpus');
  const random = at('--random');
  const inputs = [...(corpus !== undefined ? corpusValues(corpus) : []), ...(random !== undefined ? checkInputs(33, Number(random)) : [])];
  for (let i = 0; i < inputs.length; i += 1000) {
    const lines = inputs.slice(i, i + 1000).map(({ value, options }) => JSON.stringify([value, options, checkUrl(value, options)]) + '\n');
    writeSync(1, lines.join(''));
  }
}

main(process.argv.slice(2));
