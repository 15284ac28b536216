// The config's view table and --map, for the commands that use them.
import { ConfigError, loadConfig, viewTable, type LoadedConfig } from '../node/config-file.js';
import type { LocalFileOptions } from '../node/local-files.js';

/** The config (--config FILE, else found upward), or null after printing why it is not valid. */
export async function readConfig(explicit: string | undefined): Promise<LoadedConfig | undefined | null> {
  try {
    return await loadConfig(explicit);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message}\n`);
    return null;
  }
}

/** `local` with the view table of the config and --map added; null when the config is not valid (usage error). */
export async function withViews(explicit: string | undefined, local: LocalFileOptions | undefined): Promise<LocalFileOptions | undefined | null> {
  const loaded = await readConfig(explicit);
  if (loaded === null) return null;
  const views = viewTable(loaded, local?.maps ?? []);
  if (!views) return local;
  return { checkExists: false, maps: [], ...local, views };
}
