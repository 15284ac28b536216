// Finding and reading jdf-filespec.config.json: upward from the working folder (as linters find theirs) or
// --config FILE. A bad config is a usage error that names each problem's line and column. A config found upward
// is someone else's when another user owns it or can replace it (git's "dubious ownership"): it is ignored.
import { constants, readFileSync, type Stats } from 'node:fs';
import { access, open, readFile, stat } from 'node:fs/promises';
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

/** S_ISVTX (POSIX), which fs.constants does not name. */
const STICKY = 0o1000;

const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

/**
 * Why a config found upward is not to be trusted, or null: it must be owned by the user who runs us or by root
 * (git's safe.directory test), and neither it nor its folder may be writable by group or others (OpenSSH's
 * StrictModes test), except a folder with the sticky bit (/tmp), where others cannot rename or remove our file.
 * `file` is the config's own status, taken from the descriptor it is read through; `uid` is ours. Without POSIX owners
 * (Windows), nothing is refused.
 */
export function untrustedConfig(file: Pick<Stats, 'uid' | 'mode'>, folder: Pick<Stats, 'uid' | 'mode'>, folderPath: string, uid: number | undefined): string | null {
  if (uid === undefined) return null;
  if (file.uid !== uid && file.uid !== 0) return `it is owned by uid ${file.uid}, not by you (uid ${uid}) or root`;
  if ((file.mode & 0o022) !== 0) return `it is writable by ${file.mode & 0o002 ? 'others' : 'its group'} (mode ${octal(file.mode)})`;
  if (folder.uid !== uid && folder.uid !== 0) return `its folder ${folderPath} is owned by uid ${folder.uid}, not by you (uid ${uid}) or root`;
  if ((folder.mode & 0o022) !== 0 && (folder.mode & STICKY) === 0) {
    return `its folder ${folderPath} is writable by ${folder.mode & 0o002 ? 'others' : 'its group'} (mode ${octal(folder.mode)}) without the sticky bit`;
  }
  return null;
}

/** The text of a config found upward, read through one descriptor whose owner and mode were checked; a string says why it was ignored. */
async function readFoundConfig(file: string): Promise<{ text: string } | { ignored: string }> {
  // O_NONBLOCK: a FIFO planted under the name must not hold the run; only a regular file is read.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ignored: 'it is not a regular file' };
    const why = untrustedConfig(info, await stat(path.dirname(file)), path.dirname(file), process.getuid?.());
    if (why !== null) return { ignored: why };
    return { text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

/**
 * Reads the config named by --config, else the one found upward from `cwd`; undefined when there is none, or
 * when the one found upward is not to be trusted (see untrustedConfig: `warn` is told why, and no config is
 * used). A config named by --config is the user's own choice and is read whoever owns it. Throws ConfigError.
 */
export async function loadConfig(explicit: string | undefined, cwd = process.cwd(), warn: (message: string) => void = () => undefined): Promise<LoadedConfig | undefined> {
  const file = explicit ?? (await findConfig(cwd));
  if (file === undefined) return undefined;
  let text: string;
  try {
    if (explicit !== undefined) text = await readFile(file, 'utf8');
    else {
      const found = await readFoundConfig(file);
      if ('ignored' in found) {
        warn(`ignoring the config ${file}: ${found.ignored}; name it with --config to use it`);
        return undefined;
      }
      text = found.text;
    }
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
