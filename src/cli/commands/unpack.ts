import { defineCommand } from '../define.js';

export const unpack = defineCommand({
  command: 'unpack <package>',
  describe: 'Write every part of a MIME or zip package into a folder, and rewrite cid: references to relative URLs',
  builder: (y) =>
    y
      .positional('package', { type: 'string', demandOption: true, describe: 'A MIME (.mjm, .mjd) or zip package' })
      .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'The folder to write into (created if needed); nothing is written outside it' })
      .example('$0 unpack job.mjm -o job/', 'The ticket and its files in job/, the cid: references now relative'),
  load: () => import('../unpack.js'),
  run: async (args) => (await import('../unpack.js')).runUnpack({ input: String(args.package), output: String(args.output) }),
});
