import { readFileSync } from 'node:fs';

/** Reads a JSON file from test/data (copied spec data; see test/data/ORIGIN.md). */
export function loadData<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../test/data/${name}`, import.meta.url), 'utf8')) as T;
}

export const projectRoot = new URL('../../', import.meta.url);
