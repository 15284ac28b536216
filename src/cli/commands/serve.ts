import { defineCommand, UsageError } from '../define.js';
import { hostPlatformOption, platformHere } from '../platforms.js';
import { PROFILES } from '../../rules/types.js';
import { byteSize } from '../numbers.js';
import { ENGINE_MAX_BYTES } from '../../node/limits.js';
import { DEFAULT_KEEP, keepDuration, serverOptions } from '../serve-server-options.js';

/** --fetch-from: http(s) URLs with a host, or a usage error. */
function urlPrefixes(values: unknown): string[] {
  return (Array.isArray(values) ? values : [values]).map((v) => {
    const text = String(v);
    if (!/^https?:\/\/[^/?#]+/i.test(text) || !URL.canParse(text)) throw new UsageError(`--fetch-from takes an http:// or https:// URL prefix with a host, such as http://mis.example/tickets/, not "${text}".`);
    return text;
  });
}

export const serve = defineCommand({
  command: 'serve',
  describe: 'Run as a JMF front door: check each job submitted over HTTP (SubmitQueueEntry, a JMF or a MIME package) as validate does, answer in JMF, pass on only what is accepted',
  builder: (y) =>
    serverOptions(y)
      .option('config', { type: 'string', describe: 'The config: its view table, rules and vocabularies, and its "serve" settings (outbox, forward, hotFolder, publicUrl, fetchFrom, keep)' })
      .option('outbox', { type: 'string', requiresArg: true, describe: 'Where each job, its report.json, report.sarif and status.json are kept (shared by every instance; default: the config\'s serve.outbox)' })
      .option('forward', { type: 'string', requiresArg: true, describe: 'Forward accepted jobs, as sent, to this downstream JMF URL and relay its answer (default: the config\'s serve.forward)' })
      .option('hot-folder', { type: 'string', requiresArg: true, describe: 'Drop accepted jobs into this hot folder, as watch takes them (default: the config\'s serve.hotFolder)' })
      .option('public-url', { type: 'string', requiresArg: true, describe: 'The URL clients reach this server at, for the report links in the answers (default: http:// and the request\'s Host)' })
      .option('fetch-from', { type: 'string', array: true, requiresArg: true, coerce: urlPrefixes, describe: 'Fetch a job\'s http(s) ticket only from under this URL prefix (repeatable; each redirect too); none by default, any other is refused with ReturnCode 120 (default: the config\'s serve.fetchFrom)' })
      .option('keep', { requiresArg: true, coerce: keepDuration, describe: `Remove a finished queue entry (Completed or Aborted: its folder in the outbox, its claim) untouched for this long, a duration such as 30d, 12h or 90m (1h or more), or forever; one in progress or Waiting never. A removed entry is unknown to QueueEntryStatus (ReturnCode 105) (default: the config's serve.keep, else ${DEFAULT_KEEP})` })
      .option('max-bytes', { requiresArg: true, default: '256MiB', coerce: byteSize('max-bytes', ENGINE_MAX_BYTES), describe: 'As validate\'s --max-bytes: a ticket larger than this (file: or fetched by http:) is reported, not read; also the largest body the JMF handler takes. A size in bytes, or with a unit (10kB, 100MiB). The body is held to --max-body first' })
      .option('check-exists', { type: 'boolean', default: false, describe: 'Look for every local file a job references, in this machine\'s view' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable)' })
      .option('root', { type: 'string', describe: 'Every local file (and file: ticket) must stay inside this folder; nothing outside it is opened' })
      .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules to check against: jdf, rfc8089, lenient' })
      .option('platform', { ...hostPlatformOption, describe: 'Platform of the consumer that opens the files (unix and posix are one)' })
      .example('$0 serve --config shop.json', 'Listens on 127.0.0.1:8080; the config says where jobs are kept and passed on')
      .example('$0 serve --outbox /srv/jmf/outbox --forward http://press:8010/jmf --check-exists', 'Checks each job\'s files on this machine and forwards the accepted ones to the press'),
  load: () => import('../serve.js'),
  run: async (args) => {
    const [{ runServe }, { parseMap }, { serverOptionsFrom }] = await Promise.all([import('../serve.js'), import('../../node/local-files.js'), import('../serve-listener.js')]);
    return runServe({
      server: serverOptionsFrom(args),
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.outbox !== undefined ? { outbox: args.outbox } : {}),
      ...(args.forward !== undefined ? { forward: args.forward } : {}),
      ...(args.hotFolder !== undefined ? { hotFolder: args.hotFolder } : {}),
      ...(args.publicUrl !== undefined ? { publicUrl: args.publicUrl } : {}),
      ...(args.fetchFrom !== undefined ? { fetchFrom: args.fetchFrom } : {}),
      maxBytes: args.maxBytes,
      ...(args.keep !== undefined ? { keep: args.keep } : {}),
      local: {
        checkExists: args.checkExists,
        maps: (args.map ?? []).map((m) => parseMap(String(m))),
        ...(args.root !== undefined ? { root: args.root } : {}),
        profile: args.profile,
      },
      validate: { profile: args.profile, platform: platformHere(args.platform, args.checkExists) },
    });
  },
});
