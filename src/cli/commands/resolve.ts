import { defineCommand } from '../define.js';

export const resolve = defineCommand({
  command: 'resolve <reference>',
  describe: 'Resolve a reference against a base URI (RFC 3986 section 5.2)',
  builder: (y) =>
    y
      .positional('reference', { type: 'string', demandOption: true, describe: 'The relative or absolute reference' })
      .option('base', { type: 'string', demandOption: true, describe: 'The base URI (RunList/@Directory or the ticket folder)' })
      .option('drive-preserving', { type: 'boolean', default: false, describe: 'RFC 8089 E.2.1: never climb above the drive letter' })
      .example('$0 resolve ../F-22/job001.pdf --base file:///c:/DownloadDir/Title-J626103/', 'Prints file:///c:/DownloadDir/F-22/job001.pdf'),
  load: () => import('../resolve.js'),
  run: async (args) => (await import('../resolve.js')).runResolve(String(args.reference), args.base, args.drivePreserving),
});
