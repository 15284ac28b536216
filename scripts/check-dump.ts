// Writes checkUrl's whole answer (JSON: findings with code, severity, message, args, spec, offset, fix,
// suggestions; value, kind, scheme, host, local, resolved, fixed) for each value, one line per value, so two
// versions of the checker can be compared with `cmp`: `node dist/scripts/check-dump.js [--corpus DIR] [--random N] > FILE`.
// The corpus values are the URL values validateTicket reads in each ticket, with the options it checked them under
// (as bench/real.ts takes them); the random ones are test/check-inputs.ts's (seed 33).
import { writeSync } from 'node:fs';
import { checkUrl } from '../src/check.js';
import { checkInputs } from '../test/check-inputs.js';
import { corpusValues } from './corpus-values.js';

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
