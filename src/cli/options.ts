import type { Argv } from 'yargs';
import { consumerPlatformOption } from './platforms.js';
import { PROFILES } from '../rules/types.js';

/** Options that `check` and `validate` share. */
export function withCheckOptions<T>(y: Argv<T>) {
  return y
    .option('base', { type: 'string', describe: 'Base URI that relative references resolve against' })
    .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules to check against: jdf (the JDF file-URL appendix), rfc8089, lenient (RFC 8089 appendix E forms as warnings)' })
    .option('platform', { ...consumerPlatformOption, describe: 'Platform of the consumer that opens the files (unix and posix are one)' })
    .option('jdf-version', { type: 'string', describe: "JDF version (overrides a ticket's own JDF/@Version): raw non-ASCII is an error up to 1.2 and allowed (info) from 1.3" })
    .option('drive-preserving', { type: 'boolean', default: false, describe: 'Resolve with RFC 8089 E.2.1: ".." and "/x" never leave the drive letter' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Show errors only' })
    .option('exit-zero', { type: 'boolean', default: false, describe: 'Exit 0 even when there are errors (for demos and reports)' });
}

/** How `validate` and `fix` find tickets: ESLint's options and names. */
export function withDiscoveryOptions<T>(y: Argv<T>) {
  return y
    .option('ignore-pattern', { type: 'string', array: true, requiresArg: true, describe: 'Skip files matching this gitignore-style pattern, relative to the working folder (repeatable); node_modules and dot-folders are always skipped' })
    .option('ignore', { type: 'boolean', default: true, describe: 'Read .jdf-filespecignore (gitignore syntax; the nearest, in the working folder or above, as the config is found) and apply --ignore-pattern, to files named too (each skipped with a warning); --no-ignore skips both' })
    .option('error-on-unmatched-pattern', { type: 'boolean', default: true, describe: 'A folder or glob that finds no ticket is an error (exit 2); --no-error-on-unmatched-pattern makes it none' });
}

/** The discovery options as expandPaths takes them. */
export function discoveryOf(args: { ignorePattern?: unknown[] | undefined; ignore: boolean }) {
  return args.ignore ? { ignorePatterns: (args.ignorePattern ?? []).map(String), ignoreNamedFiles: true } : { ignoreFile: false, ignorePatterns: [] };
}
