import { defineCommand } from '../define.js';
import { withCheckOptions } from '../options.js';

export const check = defineCommand({
  command: 'check [urls..]',
  describe: 'Check URLs (FileSpec/@URL values) against the JDF file-URL appendix or RFC 8089',
  builder: (y) =>
    withCheckOptions(y)
      .positional('urls', { type: 'string', array: true, describe: 'URLs to check' })
      .option('format', { alias: 'f', choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
      .option('role', { choices: ['url', 'directory'] as const, default: 'url' as const, describe: 'Check as FileSpec/@URL or as RunList/@Directory' })
      .option('file', { type: 'string', describe: 'Read URLs from a file, one per line ("# " starts a comment line)' })
      .example('$0 check "file:///c:/my docs/a.pdf"', 'Flags the space and proposes file:///c:/my%20docs/a.pdf')
      .example('$0 check ../a.pdf --base file:///c:/jobs/', 'Resolves against the base and checks the result')
      .example('$0 check file:///c:/Jobs --role directory', 'Checks a RunList/@Directory'),
  load: () => import('../check.js'),
  run: async (args) =>
    (await import('../check.js')).runCheck({
      urls: (args.urls ?? []).map(String),
      ...(args.file !== undefined ? { file: args.file } : {}),
      format: args.format,
      quiet: args.quiet,
      exitZero: args.exitZero,
      options: {
        ...(args.base !== undefined ? { base: args.base } : {}),
        profile: args.profile,
        platform: args.platform,
        ...(args.jdfVersion !== undefined ? { jdfVersion: args.jdfVersion } : {}),
        role: args.role,
        drivePreserving: args.drivePreserving,
      },
    }),
});
