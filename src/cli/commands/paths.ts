import { defineCommand } from '../define.js';
import { PATH_PLATFORM_NAMES, pathPlatform } from '../platforms.js';

export const toPath = defineCommand({
  command: 'to-path <url>',
  describe: 'The local path a file URL names on a platform',
  builder: (y) =>
    y
      .positional('url', { type: 'string', demandOption: true, describe: 'A file URL' })
      .option('platform', { choices: PATH_PLATFORM_NAMES, default: 'posix' as const, coerce: pathPlatform, describe: 'posix (or unix, the same), windows (drive letters, UNC), mac (HFS, appendix Table 5) or vms' })
      .example('$0 to-path file://fileserver/Jobs/a%20b.pdf --platform windows', 'Prints \\\\fileserver\\Jobs\\a b.pdf'),
  load: () => import('../paths.js'),
  run: async (args) => (await import('../paths.js')).runToPath(String(args.url), args.platform),
});

export const fromPath = defineCommand({
  command: 'from-path <path>',
  describe: 'The file URL for a local path on a platform',
  builder: (y) =>
    y
      .positional('path', { type: 'string', demandOption: true, describe: 'A path' })
      .option('platform', { choices: PATH_PLATFORM_NAMES, default: 'posix' as const, coerce: pathPlatform, describe: 'posix (or unix, the same), windows, mac or vms' })
      .option('form', { choices: ['traditional', 'minimal'] as const, default: 'traditional' as const, describe: 'file:///path (traditional) or file:/path (minimal, RFC 8089)' })
      .example('$0 from-path "C:\\my docs\\a.pdf" --platform windows', 'Prints file:///C:/my%20docs/a.pdf'),
  load: () => import('../paths.js'),
  run: async (args) => (await import('../paths.js')).runFromPath(String(args.path), args.platform, args.form),
});
