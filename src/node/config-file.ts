// Finding and reading jdf-filespec.config.json: upward from the working folder (as linters find theirs) or
// --config FILE. A bad config is a usage error that names each problem's line and column.
import { readFileSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/parse.js';
import { pathToFileUrl } from '../paths/convert.js';
import { withMaps } from '../views/build.js';
import type { ViewTable } from '../views/types.js';
import type { PrefixMap } from './local-files.js';

export const CONFIG_NAME = 'jdf-filespec.config.json';

export class ConfigError extends Error {}

let schema: object | undefined;

/** schemas/config.schema.json, shipped with the package. */
export function configSchema(): object {
  schema ??= JSON.parse(readFileSync(new URL('../../../schemas/config.schema.json', import.meta.url), 'utf8')) as object;
  return schema;
}

/** The nearest jdf-filespec.config.json in `start` or a folder above it. */
export async function findConfig(start: string): Promise<string | undefined> {
  let folder = path.resolve(start);
  for (;;) {
    const candidate = path.join(folder, CONFIG_NAME);
    try {
      await access(candidate);
      return candidate;
    } catch {
      const parent = path.dirname(folder);
      if (parent === folder) return undefined;
      folder = parent;
    }
  }
}

export interface LoadedConfig {
  path: string;
  config: Config;
  table: ViewTable;
}

/** Reads the config named by --config, else the one found upward from `cwd`; undefined when there is none. Throws ConfigError. */
export async function loadConfig(explicit: string | undefined, cwd = process.cwd()): Promise<LoadedConfig | undefined> {
  const file = explicit ?? (await findConfig(cwd));
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the config ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // The parser and its JSON Schema validator (ajv) load only when there is a config: a run without one never pays for them.
  const { parseConfig } = await import('../config/parse.js');
  const parsed = parseConfig(text.replace(/^\uFEFF/, ''), configSchema(), os.hostname());
  if (!('config' in parsed)) {
    throw new ConfigError(`the config ${file} is not valid:\n${parsed.problems.map((p) => `  ${file}:${p.line}:${p.column}: ${p.message}`).join('\n')}`);
  }
  return { path: file, config: parsed.config, table: parsed.table };
}

/** The table of the config plus one row per --map (the folder made absolute here); undefined when neither gives one. */
export function viewTable(loaded: LoadedConfig | undefined, maps: readonly PrefixMap[]): ViewTable | undefined {
  if (!loaded && maps.length === 0) return undefined;
  const platform = process.platform === 'win32' ? 'windows' : 'posix';
  const base: ViewTable = loaded?.table ?? { views: {}, storages: [] };
  return withMaps(base, maps.map((m) => ({ prefix: m.prefix, folderUrl: pathToFileUrl(path.resolve(m.folder), { platform }) })));
}
