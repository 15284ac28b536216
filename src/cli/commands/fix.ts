import { defineCommand, givenPaths } from '../define.js';
import { consumerPlatformOption } from '../platforms.js';
import { PROFILES } from '../../rules/types.js';
import { discoveryOf, withDiscoveryOptions } from '../options.js';

export const fix = defineCommand({
  command: 'fix <paths..>',
  describe: 'Apply the safe fixes to URL attribute values in place; every other byte stays as it was',
  builder: (y) =>
    withDiscoveryOptions(y)
      .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Ticket files, folders or quoted glob patterns' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print a unified diff and change nothing' })
      .option('backup', { type: 'boolean', default: false, describe: 'Keep the original as FILE.orig' })
      .option('allow-read-only', { type: 'boolean', default: false, describe: 'Fix a ticket that is read-only (its owner may not write it, as with mode 0444); refused without it' })
      .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules whose fixes apply' })
      .option('platform', { ...consumerPlatformOption, describe: 'Platform of the consumer (unix and posix are one)' })
      .option('base', { type: 'string', describe: "Base URI instead of each ticket's folder" })
      .example('$0 fix hot-folder/ --dry-run', 'Shows what would change')
      .example('$0 fix ticket.jdf --backup', 'Fixes in place, keeps ticket.jdf.orig'),
  load: () => import('../fix.js'),
  run: async (args) =>
    (await import('../fix.js')).runFix({
      paths: givenPaths(args.paths),
      discovery: discoveryOf(args),
      errorOnUnmatchedPattern: args.errorOnUnmatchedPattern,
      dryRun: args.dryRun,
      backup: args.backup,
      allowReadOnly: args.allowReadOnly,
      validate: { profile: args.profile, platform: args.platform, ...(args.base !== undefined ? { base: args.base } : {}) },
    }),
});
