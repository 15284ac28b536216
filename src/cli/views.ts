// The config's view table and --map, for the commands that use them.
import { ConfigError, loadConfig, viewTable, type LoadedConfig } from '../node/config-file.js';
import type { LocalFileOptions } from '../node/local-files.js';
import type { RuleSettings } from '../rules/settings.js';

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
  /** The config's rules (their codes checked when it was read). */
  rules: RuleSettings;
  /** The config's vendor vocabularies (checked when it was read). */
  vocabularies: string[];
  /** The config as read (serve takes its `serve` settings, relative to its folder). */
  loaded?: LoadedConfig;
}

/** `local` with the view table of the config and --map added, and the config's urlAttributes, rules and vocabularies; null when the config is not valid (usage error). */
export async function withViews(explicit: string | undefined, local: LocalFileOptions | undefined): Promise<ConfigSettings | null> {
  const loaded = await readConfig(explicit);
  if (loaded === null) return null;
  const urlAttributes = loaded?.config.urlAttributes ?? [];
  const rules = loaded?.config.rules ?? {};
  const vocabularies = loaded?.config.vocabularies ?? [];
  const views = viewTable(loaded, local?.maps ?? []);
  const config = loaded ? { loaded } : {};
  if (!views) return { local, urlAttributes, rules, vocabularies, ...config };
  return { local: { checkExists: false, maps: [], ...local, views }, urlAttributes, rules, vocabularies, ...config };
}
