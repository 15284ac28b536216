// Read + validateTicket over a corpus folder once, in a process of its own: what any fresh process pays for the
// same work (compiling and warming up the validator as it goes), beside the CLI's run (bench/real.ts).
// Usage: node dist/bench/fresh-child.js DIR; prints the milliseconds of the loop (after the imports).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { validateTicket } from '../src/index.js';
import { ticketsIn } from './tickets.js';

const names = ticketsIn(process.argv[2]!);
const t0 = performance.now();
for (const f of names) validateTicket(readFileSync(f), { documentUri: pathToFileURL(f).href });
process.stdout.write(`${performance.now() - t0}\n`);
