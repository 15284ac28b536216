import { defineCommand, givenPaths } from '../define.js';

export const rebase = defineCommand({
  command: 'rebase <paths..>',
  describe: "Rewrite tickets for another machine: every URL and Directory under one view's prefix gets another view's prefix",
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Ticket files or folders' })
      .option('from', { type: 'string', describe: 'Only values under this view of the config (default: every view but --to)' })
      .option('to', { type: 'string', describe: 'The view to rewrite for' })
      .option('to-prefix', { type: 'string', describe: 'A prefix (URL or path) to rewrite to, instead of a view' })
      .option('absolute', { type: 'boolean', default: false, describe: 'Make relative references absolute too (default: they stay relative and follow their Directory)' })
      .option('fold-directory', { type: 'boolean', default: false, describe: 'Resolve the URLs under each RunList/Preview Directory and drop the Directory (before a JDF becomes XJDF, which has none)' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print a unified diff (git apply and patch accept it) and change nothing' })
      .option('backup', { type: 'boolean', default: false, describe: 'Keep the original as FILE.orig' })
      .option('config', { type: 'string', describe: 'The config with the view table (default: jdf-filespec.config.json in this folder or the nearest one above, if you or root own it and only its owner can write it and its folder)' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: one more row of the table (PREFIX in the view "--map", PATH in the machine\'s view)' })
      .option('base', { type: 'string', describe: "Base URI instead of each ticket's folder" })
      .example('$0 rebase ticket.jdf --from mis --to rip', 'file://fileserver/Jobs/4711/a.pdf becomes file:///mnt/jobs/4711/a.pdf')
      .example('$0 rebase ticket.jdf --to rip --dry-run', 'Shows the change as a unified diff')
      .example('$0 rebase job.jdf --from mis --to rip --fold-directory', 'Resolves URLs against their Directory and drops it'),
  load: () => import('../rebase.js'),
  run: async (args) =>
    (await import('../rebase.js')).runRebase({
      paths: givenPaths(args.paths),
      ...(args.from !== undefined ? { from: args.from } : {}),
      ...(args.to !== undefined ? { to: args.to } : {}),
      ...(args.toPrefix !== undefined ? { toPrefix: args.toPrefix } : {}),
      absolute: args.absolute,
      foldDirectory: args.foldDirectory,
      dryRun: args.dryRun,
      backup: args.backup,
      ...(args.config !== undefined ? { config: args.config } : {}),
      maps: (args.map ?? []).map(String),
      ...(args.base !== undefined ? { base: args.base } : {}),
    }),
});
