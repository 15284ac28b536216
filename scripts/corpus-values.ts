// The URL values of a folder of real tickets, as bench/real.ts takes them: for scripts/check-dump.ts and
// scripts/check-classes.ts.
import { readFileSync } from 'node:fs';
import { valuesOf, type Value } from '../bench/real-values.js';
import { ticketsIn } from '../bench/tickets.js';

/** Every URL value of the folder's tickets (identifiers left out), with its base and the options it was checked under. */
export function corpusValues(dir: string): Value[] {
  return valuesOf(ticketsIn(dir).map((file) => ({ file, bytes: new Uint8Array(readFileSync(file)) })));
}
