// serve on the command line: the config's view table, rules, vocabularies and "serve" settings, handleJmf bound to
// them, the listener started; where it listens printed; SIGINT/SIGTERM close it (in-flight requests finish).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CLAIM_STALE_MS, type JmfOptions } from '../node/jmf/options.js';
import type { LocalFileOptions } from '../node/local-files.js';
import type { ServerOptions } from '../node/serve/server.js';
import type { ValidateOptions } from '../ticket/validate.js';
import { parseUrlAttribute } from '../ticket/vocabulary.js';
import { KEEP_TAKES, parseKeep } from '../config/keep.js';
import { DEFAULT_KEEP } from './serve-server-options.js';
import { startRetention } from './serve-retention.js';
import { packageVersion } from './version.js';
import { withViews } from './views.js';

export interface ServeRun {
  server: ServerOptions;
  config?: string;
  outbox?: string;
  forward?: string;
  hotFolder?: string;
  publicUrl?: string;
  fetchFrom?: string[];
  maxBytes: number;
  /** --keep: finished queue entries older than this are removed (ms), or never; default the config's serve.keep, else 30d. */
  keep?: number | 'forever';
  local: LocalFileOptions;
  validate: ValidateOptions;
}

export async function runServe(run: ServeRun): Promise<number> {
  const settings = await withViews(run.config, run.local.root !== undefined ? { ...run.local, root: path.resolve(run.local.root) } : run.local);
  if (settings === null) return 2;
  const folder = settings.loaded ? path.dirname(settings.loaded.path) : process.cwd();
  const fromConfig = settings.loaded?.config.serve ?? {};
  const outbox = run.outbox ?? (fromConfig.outbox !== undefined ? path.resolve(folder, fromConfig.outbox) : undefined);
  if (outbox === undefined) {
    process.stderr.write('jdf-filespec: serve needs an outbox: --outbox FOLDER, or "serve": { "outbox": ... } in the config\n');
    return 2;
  }
  const hotFolder = run.hotFolder ?? (fromConfig.hotFolder !== undefined ? path.resolve(folder, fromConfig.hotFolder) : undefined);
  const forward = run.forward ?? fromConfig.forward;
  const publicUrl = run.publicUrl ?? fromConfig.publicUrl;
  const fetchFrom = run.fetchFrom ?? fromConfig.fetchFrom;
  // The config's keep passed its schema, whose pattern takes what parseKeep takes; undefined would be a schema gone wrong.
  const keep = run.keep ?? parseKeep(fromConfig.keep ?? DEFAULT_KEEP);
  if (keep === undefined) {
    process.stderr.write(`jdf-filespec: the config's serve.keep takes ${KEEP_TAKES}, not ${JSON.stringify(fromConfig.keep)}\n`);
    return 2;
  }
  try {
    await mkdir(outbox, { recursive: true });
    if (hotFolder !== undefined) await mkdir(hotFolder, { recursive: true });
  } catch (error) {
    process.stderr.write(`jdf-filespec: ${(error as Error).message}\n`);
    return 2;
  }
  const options: JmfOptions = {
    outbox,
    validate: validateWith(run.validate, settings),
    ...(settings.local && (settings.local.checkExists || settings.local.root !== undefined || settings.local.views !== undefined) ? { local: settings.local } : {}),
    maxBytes: run.maxBytes,
    ...(forward !== undefined ? { forward } : {}),
    ...(hotFolder !== undefined ? { hotFolder } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(fetchFrom !== undefined ? { fetchFrom } : {}),
    toolVersion: packageVersion(),
    // A claimed submission with no answer after the request timeout was its owner's last: it died; take it over.
    ...(run.server.requestTimeoutMs !== undefined ? { claimStaleMs: run.server.requestTimeoutMs } : {}),
  };
  // The JMF side is the library's own module (jdf-filespec/node ships it in dist/src), loaded from there rather
  // than copied into the bundle: by URL, which the bundle points at the same file from dist/bin. The listener is
  // the CLI's (bundled): limits, authentication, TLS, probes, metrics, graceful shutdown on SIGTERM or SIGINT.
  const [{ handleJmf, jmfRefusal }, { sweepOutbox }, { serveUntilSignalled }] = await Promise.all([
    import(new URL('../node/jmf/handle.js', import.meta.url).href) as Promise<typeof import('../node/jmf/handle.js')>,
    import(new URL('../node/jmf/retention.js', import.meta.url).href) as Promise<typeof import('../node/jmf/retention.js')>,
    import('./serve-listener.js'),
  ]);
  const where = `outbox ${outbox}${forward !== undefined ? `, forwarding to ${forward}` : ''}${hotFolder !== undefined ? `, hot folder ${hotFolder}` : ''}, finished entries kept ${keptFor(keep)}`;
  const say = (line: string) => process.stdout.write(`jdf-filespec serve: ${line}${line.startsWith('listening on ') ? ` (${where})` : ''}\n`);
  // Swept at start and then periodically (a timer that does not hold the process); stopped, and its sweep in
  // progress let stop between two entries, once the listener has closed.
  const retention = keep === 'forever' ? undefined : startRetention(sweepOutbox, outbox, keep, options.claimStaleMs ?? CLAIM_STALE_MS, say);
  try {
    return await serveUntilSignalled({ ...run.server, refusal: jmfRefusal }, (request) => handleJmf(request, options), say);
  } finally {
    await retention?.stop();
  }
}

/** How long finished entries are kept, as the start line says it: forever, in days, or under a day in hours. */
function keptFor(keep: number | 'forever'): string {
  if (keep === 'forever') return 'forever';
  return keep >= 86_400_000 ? `${+(keep / 86_400_000).toFixed(2)} days` : `${+(keep / 3_600_000).toFixed(2)} hours`;
}

/** The config's urlAttributes, rules and vocabularies, as validate and watch take them. */
function validateWith(validate: ValidateOptions, settings: NonNullable<Awaited<ReturnType<typeof withViews>>>): ValidateOptions {
  let out = validate;
  const extra = settings.urlAttributes.map((text) => parseUrlAttribute(text)!);
  if (extra.length > 0) out = { ...out, urlAttributes: [...(out.urlAttributes ?? []), ...extra] };
  if (Object.keys(settings.rules).length > 0) out = { ...out, rules: { ...settings.rules, ...out.rules } };
  if (settings.vocabularies.length > 0) out = { ...out, vocabularies: [...new Set([...settings.vocabularies, ...(out.vocabularies ?? [])])] };
  return out;
}
