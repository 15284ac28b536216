import { defineCommand } from '../define.js';
import { hostPlatformOption, platformHere } from '../platforms.js';
import { PROFILES } from '../../rules/types.js';

export const pack = defineCommand({
  command: 'pack <ticket>',
  describe: 'Pack a ticket and every local file it references into one MIME (cid: references) or zip package',
  builder: (y) =>
    y
      .positional('ticket', { type: 'string', demandOption: true, describe: 'The JDF, JMF, XJDF or XJMF ticket' })
      .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'The package to write (.mjm/.mjd for MIME, .zip)' })
      .option('format', { choices: ['mime', 'zip'] as const, default: 'mime' as const, describe: 'mime: multipart/related, references rewritten to cid: URLs; zip: references relative to the package (a RunList/Preview Directory folded into them and dropped)' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable)' })
      .option('root', { type: 'string', describe: 'Every packed file must be inside this folder (after symbolic links)' })
      .option('allow-missing', { type: 'boolean', default: false, describe: 'Pack what is there; references to missing files stay as they are' })
      .option('base', { type: 'string', describe: "Base URI instead of the ticket's folder" })
      .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules the ticket is read with' })
      .option('platform', { ...hostPlatformOption, describe: 'Platform of the consumer (unix and posix are one)' })
      .example('$0 pack ticket.jdf -o job.mjm', 'The ticket and its PDFs in one MIME package, references as cid: URLs')
      .example('$0 pack job.xjdf -o job.zip --format zip', 'An XJDF zip, references as content/NAME'),
  load: () => import('../pack.js'),
  run: async (args) =>
    (await import('../pack.js')).runPack({
      ticket: String(args.ticket),
      output: String(args.output),
      format: args.format,
      maps: (args.map ?? []).map(String),
      ...(args.root !== undefined ? { root: args.root } : {}),
      allowMissing: args.allowMissing,
      validate: { profile: args.profile, platform: platformHere(args.platform, true), ...(args.base !== undefined ? { base: args.base } : {}) },
    }),
});
