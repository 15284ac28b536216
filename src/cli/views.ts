// The config's view table and --map, for the commands that use them.
import { ConfigError, loadConfig, viewTable, type LoadedConfig } from '../node/config-file.js';
import type { LocalFileOptions } from '../node/local-files.js';

/** The config (--config FILE, else found upward and trusted), or null after printing why it is not valid. */
export async function readConfig(explicit: string | undefined): Promise<LoadedConfig | undefined | null> {
  try {
    return await loadConfig(explicit, process.cwd(), (message) => process.stderr.write(`jdf-filespec: ${message}\n`));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message}\n`);
    return null;
  }
}

/** What the config adds to a run: the view table (with --map) in `local`, and the attributes it reads as URLs. */
export interface ConfigSettings {
  local: LocalFileOptions | undefined;
  /** The config's urlAttributes (ELEMENT/@ATTR[=directory]), checked when it was read. */
  urlAttributes: string[];
}

/** `local` with the view table of the config and --map added, and the config's urlAttributes; null when the config is not valid (usage error). */
export async function withViews(explicit: string | undefined, local: LocalFileOptions | undefined): Promise<ConfigSettings | null> {
  const loaded = await readConfig(explicit);
  if (loaded === null) return null;
  const urlAttributes = loaded?.config.urlAttributes ?? [];
  const views = viewTable(loaded, local?.maps ?? []);
  if (!views) return { local, urlAttributes };
  return { local: { checkExists: false, maps: [], ...local, views }, urlAttributes };
}
