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

/** Our home page (package.json's homepage), for SARIF's tool.driver.informationUri. */
export function homepage(): string | undefined {
  return ours().homepage?.replace(/#.*$/, '').replace(/\/$/, '');
}

/** The rule documentation's URL (docs/rules.md in the repository named by package.json's homepage), for SARIF helpUri. */
export function docsUrl(): string | undefined {
  const home = homepage();
  return home ? `${home}/blob/main/docs/rules.md` : undefined;
}

/** Our own version, from our package.json (yargs would find the package.json of the project that installed us). */
export function packageVersion(): string {
  return ours().version ?? '0.0.0';
}
