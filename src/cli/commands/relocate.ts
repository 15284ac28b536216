import { defineCommand } from '../define.js';
import { CONSUMER_PLATFORMS, consumerPlatform } from '../platforms.js';

export const relocate = defineCommand({
  command: 'relocate <ticket>',
  describe: 'Copy or move a ticket with every local file it references into a new folder, references rewritten relative to the ticket; all or nothing',
  builder: (y) =>
    y
      .positional('ticket', { type: 'string', demandOption: true, describe: 'The ticket file' })
      .option('to', { type: 'string', demandOption: true, describe: 'The new folder (must not exist, or be empty); staged beside it and renamed into place' })
      .option('copy', { type: 'boolean', describe: 'Copy (the default): the sources stay' })
      .option('move', { type: 'boolean', describe: 'Move: the sources are removed once the new folder is in place, all or none, and only if none changed since it was copied (a file still being written fails the move)' })
      .option('root', { type: 'string', describe: 'The ticket, every file and the new folder must be inside this folder (after symbolic links)' })
      .option('config', { type: 'string', describe: 'The config with the view table (default: jdf-filespec.config.json in this folder or the nearest one above, if you or root own it and only its owner can write it and its folder)' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable)' })
      .option('allow-missing', { type: 'boolean', default: false, describe: 'Move or copy what is there; references to missing files (or outside --root) stay, made absolute. Without it such a file refuses the whole job' })
      .option('platform', { choices: CONSUMER_PLATFORMS, coerce: consumerPlatform, describe: 'Has no effect on relocate, and taken as validate and pack take it (unix and posix are one): the files are read on this machine, other machines\' names through the view table, and references are written relative to the ticket, alike for every platform' })
      .conflicts('copy', 'move')
      .example('$0 relocate hot/4711.jdf --to /srv/archive/4711', 'Copies the ticket and its files; writes /srv/archive/4711/jdf-filespec-relocate.json')
      .example('$0 relocate hot/4711.jdf --to /srv/jobs/4711 --move --root /srv', 'Moves them, confined to /srv'),
  load: () => import('../relocate.js'),
  run: async (args) =>
    (await import('../relocate.js')).runRelocate({
      ticket: String(args.ticket),
      to: String(args.to),
      mode: args.move ? 'move' : 'copy',
      ...(args.root !== undefined ? { root: args.root } : {}),
      ...(args.config !== undefined ? { config: args.config } : {}),
      maps: (args.map ?? []).map(String),
      allowMissing: args.allowMissing,
      ...(args.platform !== undefined ? { platform: args.platform } : {}),
    }),
});
