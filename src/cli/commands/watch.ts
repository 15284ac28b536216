import { defineCommand, UsageError } from '../define.js';
import { hostPlatformOption, platformHere } from '../platforms.js';
import { PROFILES } from '../../rules/types.js';
import { byteSize, wholeNumber } from '../numbers.js';
import { ENGINE_MAX_BYTES } from '../../node/limits.js';

/** What a duration option takes, in its help. */
const DURATION = 'a duration such as 500ms, 3s, 2m or 1h';

/** A duration: 500ms, 3s, 1.5m, 2h, or a number of seconds. */
function duration(option: string): (value: unknown) => number {
  return (value) => {
    const text = String(Array.isArray(value) ? value[value.length - 1] : value).trim();
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?$/i.exec(text);
    if (!m) throw new UsageError(`--${option} takes a duration such as 500ms, 3s, 2m or 1h, not "${text}".`);
    return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 }[(m[2] ?? 's').toLowerCase() as 'ms']!;
  };
}

export const watch = defineCommand({
  command: 'watch <in>',
  describe: 'Run as a hot folder: wait for each ticket (and its files) to be complete, check it, route it to OK or ERROR with its report',
  builder: (y) =>
    y
      .positional('in', { type: 'string', demandOption: true, describe: 'The hot folder: tickets, job packages and job folders (a folder holding one ticket and its files, taken whole) dropped here (directly) are picked up, including those already there' })
      .option('ok', { type: 'string', demandOption: true, requiresArg: true, describe: 'Tickets with no error finding go here, each with NAME.report.json beside it' })
      .option('error', { type: 'string', demandOption: true, requiresArg: true, describe: 'Tickets with an error finding (or over --max-warnings) go here, with their reports' })
      .option('work', { type: 'string', requiresArg: true, describe: 'Claimed tickets wait here: a folder on IN\'s file system only this user can write, under no folder others can write without the sticky bit (default: .NAME.jdf-filespec beside IN, for IN\'s NAME)' })
      .option('settle', { requiresArg: true, default: '2s', coerce: duration('settle'), describe: `A ticket (and a referenced file, and every file in a job folder) is complete when its size and time have not changed for this long, ${DURATION}` })
      .option('wait-for-files', { requiresArg: true, default: '0s', coerce: duration('wait-for-files'), describe: `With --check-exists: wait this long for missing referenced files to appear and settle before ERROR, ${DURATION}` })
      .option('parse-wait', { requiresArg: true, default: '30s', coerce: duration('parse-wait'), describe: `A settled ticket that does not parse is given this long to become complete before ERROR, ${DURATION}` })
      .option('poll', { type: 'boolean', describe: 'Poll instead of file-system events (network shares); default: chosen from the file system, and when events do not arrive' })
      .option('poll-interval', { requiresArg: true, default: '1s', coerce: duration('poll-interval'), describe: `How often to poll, and to sweep IN for anything events missed, ${DURATION}` })
      .option('max-warnings', { requiresArg: true, coerce: wholeNumber('max-warnings', 0), describe: 'More warnings than this, a whole number, send a ticket to ERROR' })
      .option('report-format', { choices: ['json', 'sarif', 'txt'] as const, array: true, default: ['json'] as Array<'json' | 'sarif' | 'txt'>, describe: 'Reports beside the ticket: NAME.report.json always, .report.sarif and .report.txt on request' })
      .option('on-ok', { type: 'string', requiresArg: true, describe: 'A program to run after a ticket goes to OK, with the ticket\'s and the report\'s paths as its arguments (no shell)' })
      .option('on-error', { type: 'string', requiresArg: true, describe: 'The same after a ticket goes to ERROR' })
      .option('status', { type: 'string', requiresArg: true, describe: 'Also write the status (settling, waiting, routed) to this file for a monitor' })
      .option('concurrency', { requiresArg: true, default: '4', coerce: wholeNumber('concurrency', 1), describe: 'Tickets checked at once, a whole number' })
      .option('max-bytes', { requiresArg: true, default: '256MiB', coerce: byteSize('max-bytes', ENGINE_MAX_BYTES), describe: 'Tickets larger than this are reported (file-too-large), not read: a size in bytes, or with a unit (10kB, 100MiB)' })
      .option('check-exists', { type: 'boolean', default: false, describe: 'Look for every local file a ticket references (see --wait-for-files)' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable)' })
      .option('root', { type: 'string', describe: 'Every local file must stay inside this folder; nothing outside it is opened (a job folder\'s files: inside the job folder, with or without --root)' })
      .option('config', { type: 'string', describe: 'The config with the view table (default: jdf-filespec.config.json in this folder or the nearest one above, if you or root own it and only its owner can write it and its folder)' })
      .option('strict-xml', { type: 'boolean', default: false, describe: "Run fast-xml-parser's full validator first" })
      .option('base', { type: 'string', describe: 'Base URI that relative references resolve against (default: IN, where the ticket arrived)' })
      .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules to check against: jdf, rfc8089, lenient' })
      .option('platform', { ...hostPlatformOption, describe: 'Platform of the consumer that opens the files (unix and posix are one)' })
      .option('jdf-version', { type: 'string', describe: "JDF version (overrides a ticket's own JDF/@Version)" })
      .option('drive-preserving', { type: 'boolean', default: false, describe: 'Resolve with RFC 8089 E.2.1: ".." and "/x" never leave the drive letter' })
      .example('$0 watch /srv/hot/in --ok /srv/hot/ok --error /srv/hot/error', 'Routes every ticket dropped in /srv/hot/in')
      .example('$0 watch in --ok ok --error error --check-exists --root /srv/jobs --wait-for-files 10m', 'Waits up to ten minutes for the PDFs a ticket names'),
  load: () => import('../watch.js'),
  run: async (args) => {
    const [{ runWatch }, { parseMap }] = await Promise.all([import('../watch.js'), import('../../node/local-files.js')]);
    return runWatch({
      in: String(args.in),
      ok: args.ok,
      error: args.error,
      ...(args.work !== undefined ? { work: args.work } : {}),
      settleMs: args.settle,
      waitForFilesMs: args.waitForFiles,
      parseWaitMs: args.parseWait,
      ...(args.poll !== undefined ? { poll: args.poll } : {}),
      pollMs: args.pollInterval,
      ...(args.maxWarnings !== undefined ? { maxWarnings: args.maxWarnings } : {}),
      reportFormats: args.reportFormat,
      ...(args.onOk !== undefined ? { onOk: args.onOk } : {}),
      ...(args.onError !== undefined ? { onError: args.onError } : {}),
      ...(args.status !== undefined ? { statusFile: args.status } : {}),
      concurrency: args.concurrency,
      maxBytes: args.maxBytes,
      ...(args.config !== undefined ? { config: args.config } : {}),
      local: {
        checkExists: args.checkExists,
        maps: (args.map ?? []).map((m) => parseMap(String(m))),
        ...(args.root !== undefined ? { root: args.root } : {}),
        profile: args.profile,
      },
      validate: {
        strictXml: args.strictXml,
        ...(args.jdfVersion !== undefined ? { jdfVersion: args.jdfVersion } : {}),
        ...(args.base !== undefined ? { base: args.base } : {}),
        profile: args.profile,
        platform: platformHere(args.platform, args.checkExists),
        drivePreserving: args.drivePreserving,
      },
    });
  },
});
