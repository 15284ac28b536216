import type { Argv } from 'yargs';
import { PLATFORMS, PROFILES } from '../rules/types.js';

/** Options that `check` and `validate` share. */
export function withCheckOptions<T>(y: Argv<T>) {
  return y
    .option('base', { type: 'string', describe: 'Base URI that relative references resolve against' })
    .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules to check against: jdf (the JDF file-URL appendix), rfc8089, lenient (RFC 8089 appendix E forms as warnings)' })
    .option('platform', { choices: PLATFORMS, default: 'any' as const, describe: 'Platform of the consumer that opens the files' })
    .option('jdf-version', { type: 'string', describe: "JDF version (overrides a ticket's own JDF/@Version): raw non-ASCII is an error up to 1.2 and allowed (info) from 1.3" })
    .option('drive-preserving', { type: 'boolean', default: false, describe: 'Resolve with RFC 8089 E.2.1: ".." and "/x" never leave the drive letter' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Show errors only' })
    .option('exit-zero', { type: 'boolean', default: false, describe: 'Exit 0 even when there are errors (for demos and reports)' });
}
