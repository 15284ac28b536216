import { readFileSync } from 'node:fs';

/** Our own version, from our package.json (yargs would find the package.json of the project that installed us). */
export function packageVersion(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
  } catch {
    return '0.0.0';
  }
}
