// Module hooks for the startup test: every module URL that Node loads is appended to the file named by
// JDF_LOAD_TRACE (one per line). Used through `node --import` with a data: URL that registers this file.
import { appendFileSync } from 'node:fs';

export async function load(url: string, context: unknown, nextLoad: (url: string, context: unknown) => Promise<unknown>): Promise<unknown> {
  if (process.env.JDF_LOAD_TRACE) appendFileSync(process.env.JDF_LOAD_TRACE, url + '\n');
  return nextLoad(url, context);
}
