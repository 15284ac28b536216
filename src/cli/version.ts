import { readFileSync } from 'node:fs';

let manifest: { version?: string; homepage?: string } | undefined;
function ours(): { version?: string; homepage?: string } {
  try {
    manifest ??= JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
  } catch {
    manifest = {};
  }
  return manifest;
}

/** The rule documentation's URL (docs/rules.md in the repository named by package.json's homepage), for SARIF helpUri. */
export function docsUrl(): string | undefined {
  const home = ours().homepage;
  return home ? `${home.replace(/#.*$/, '').replace(/\/$/, '')}/blob/main/docs/rules.md` : undefined;
}

/** Our own version, from our package.json (yargs would find the package.json of the project that installed us). */
export function packageVersion(): string {
  return ours().version ?? '0.0.0';
}
