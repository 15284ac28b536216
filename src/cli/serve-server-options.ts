// The options of `serve` that belong to its listener (where it listens, its limits, authentication, TLS, access
// log and shutdown), and the ServerOptions made from them. The JMF side of `serve` is in commands/serve.ts.
// Secrets come from files (or, for a bearer token, a named environment variable), never from the command line,
// where every user of the machine can read them (ps, /proc).
import { createWriteStream, openSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { parseBasicFile, parseBearerText, type Credentials } from '../node/serve/credentials.js';
import { checkServerOptions, ServeConfigError, SERVER_DEFAULTS, type ServerOptions } from '../node/serve/options.js';
import type { HttpHandler } from '../node/serve/types.js';
import { UsageError } from './define.js';
import { byteSize, duration, wholeNumber } from './numbers.js';

const DURATION = 'a duration such as 500ms, 3s, 2m or 1h';

/** Adds the listener's options to serve's builder. */
export function serverOptions<T>(y: Argv<T>) {
  return y
    .option('host', { type: 'string', default: '127.0.0.1', requiresArg: true, describe: 'Address to listen on (not loopback: needs authentication or TLS, or --insecure)' })
    .option('port', { requiresArg: true, default: '8080', coerce: wholeNumber('port', 0), describe: 'Port to listen on, a whole number (0: any free port, printed at start)' })
    .option('max-body', { requiresArg: true, default: '64MiB', coerce: byteSize('max-body', 2 ** 40), describe: 'Largest request body, a size in bytes such as 64MiB, counted as it arrives (beyond: 413)' })
    .option('max-header-bytes', { requiresArg: true, default: '16KiB', coerce: byteSize('max-header-bytes', 2 ** 30), describe: 'Largest request head, a size in bytes (beyond: 431)' })
    .option('max-concurrent', { requiresArg: true, default: String(SERVER_DEFAULTS.maxConcurrent), coerce: wholeNumber('max-concurrent', 1), describe: 'Requests answered at once, a whole number (beyond: 503 with Retry-After)' })
    .option('request-timeout', { requiresArg: true, default: '2m', coerce: duration('request-timeout', 1), describe: `Time for a whole request and its answer, ${DURATION} (then 408, or 503 when the answer is late)` })
    .option('shutdown-grace', { requiresArg: true, default: '30s', coerce: duration('shutdown-grace'), describe: `On SIGTERM or SIGINT, time for requests in flight to finish, ${DURATION}` })
    .option('auth-basic-file', { type: 'string', requiresArg: true, describe: 'Require HTTP Basic authentication: a file of user:password lines' })
    .option('auth-bearer-file', { type: 'string', requiresArg: true, describe: 'Require a bearer token: a file of token (or name:token) lines' })
    .option('auth-bearer-env', { type: 'string', requiresArg: true, describe: 'Require a bearer token: the name of the environment variable holding it' })
    .option('auth-ops', { type: 'boolean', default: false, describe: 'Put /healthz, /readyz and /metrics behind the authentication too (open by default, for probes)' })
    .option('tls-key', { type: 'string', requiresArg: true, describe: 'Serve HTTPS: the private key file (PEM); needs --tls-cert' })
    .option('tls-cert', { type: 'string', requiresArg: true, describe: 'Serve HTTPS: the certificate file (PEM, chain after it); needs --tls-key' })
    .option('insecure', { type: 'boolean', default: false, describe: 'Listen on an address other than loopback with neither authentication nor TLS' })
    .option('access-log', { type: 'string', requiresArg: true, describe: 'Write one JSON line per request to this file (appended), or to standard error with -' });
}

/** What serverOptions parses to. */
export interface ServerArgs {
  host: string;
  port: number;
  maxBody: number;
  maxHeaderBytes: number;
  maxConcurrent: number;
  requestTimeout: number;
  shutdownGrace: number;
  authBasicFile?: string | undefined;
  authBearerFile?: string | undefined;
  authBearerEnv?: string | undefined;
  authOps: boolean;
  tlsKey?: string | undefined;
  tlsCert?: string | undefined;
  insecure: boolean;
  accessLog?: string | undefined;
}

function readSecretFile(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--${option} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

function credentialsFrom(args: ServerArgs, env: NodeJS.ProcessEnv): Credentials | undefined {
  const credentials: Credentials = {};
  if (args.authBasicFile !== undefined) {
    const basic = parseBasicFile(readSecretFile('auth-basic-file', args.authBasicFile));
    if (typeof basic === 'string') throw new UsageError(`--auth-basic-file ${args.authBasicFile}: ${basic}.`);
    credentials.basic = basic;
  }
  const bearer: Array<{ name: string; token: string }> = [];
  if (args.authBearerFile !== undefined) {
    const tokens = parseBearerText(readSecretFile('auth-bearer-file', args.authBearerFile));
    if (typeof tokens === 'string') throw new UsageError(`--auth-bearer-file ${args.authBearerFile}: ${tokens}.`);
    bearer.push(...tokens);
  }
  if (args.authBearerEnv !== undefined) {
    const value = env[args.authBearerEnv];
    if (!value) throw new UsageError(`--auth-bearer-env ${args.authBearerEnv}: the variable is not set.`);
    const tokens = parseBearerText(value);
    if (typeof tokens === 'string') throw new UsageError(`--auth-bearer-env ${args.authBearerEnv}: ${tokens}.`);
    bearer.push(...tokens.map((t) => ({ ...t, name: t.name.startsWith('token-') ? args.authBearerEnv! : t.name })));
  }
  if (bearer.length) credentials.bearer = bearer;
  return credentials.basic || credentials.bearer ? credentials : undefined;
}

function tlsFrom(args: ServerArgs): ServerOptions['tls'] {
  if (args.tlsKey === undefined && args.tlsCert === undefined) return undefined;
  if (args.tlsKey === undefined || args.tlsCert === undefined) throw new UsageError('--tls-key and --tls-cert go together: give both.');
  const read = (option: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new UsageError(`--${option} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  };
  return { key: read('tls-key', args.tlsKey), cert: read('tls-cert', args.tlsCert) };
}

function accessLogFrom(file: string | undefined): ServerOptions['accessLog'] {
  if (file === undefined) return undefined;
  if (file === '-') return process.stderr;
  try {
    // Opened now, so that a path that cannot be written is a usage error at start, not a lost log later.
    const fd = openSync(file, 'a', 0o640);
    return createWriteStream('', { fd, autoClose: true });
  } catch (error) {
    throw new UsageError(`--access-log ${file}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/** The listener's options from the parsed arguments: files read, and what the listener would refuse to start
 * with refused here as a usage error (exit 2). */
export function serverOptionsFrom(args: ServerArgs, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const options: ServerOptions = {
    host: args.host,
    port: args.port,
    maxBodyBytes: args.maxBody,
    maxHeaderBytes: args.maxHeaderBytes,
    maxConcurrent: args.maxConcurrent,
    requestTimeoutMs: args.requestTimeout,
    shutdownGraceMs: args.shutdownGrace,
    authOps: args.authOps,
    insecure: args.insecure,
  };
  const credentials = credentialsFrom(args, env);
  if (credentials) options.credentials = credentials;
  const tls = tlsFrom(args);
  if (tls) options.tls = tls;
  if (args.authOps && !credentials) throw new UsageError('--auth-ops needs --auth-basic-file, --auth-bearer-file or --auth-bearer-env.');
  try {
    checkServerOptions(options);
  } catch (error) {
    if (error instanceof ServeConfigError) throw new UsageError(error.message);
    throw error;
  }
  // Last, so that nothing is opened when another option is refused.
  const accessLog = accessLogFrom(args.accessLog);
  if (accessLog) options.accessLog = accessLog;
  return options;
}

/** Closes the access log file serverOptionsFrom opened (not standard error): after the server has closed. */
export function closeAccessLog(options: ServerOptions): Promise<void> {
  const log = options.accessLog;
  if (!log || log === process.stderr) return Promise.resolve();
  return new Promise((resolve) => log.end(resolve));
}

/**
 * serve's listener from start to end, for commands/serve.ts: listens (what it cannot do is a usage error: the
 * port taken, an unusable key), says where on one line, closes gracefully on SIGTERM or SIGINT (a second one cuts
 * the grace period short) and resolves with exit code 0 once all is closed and the access log written.
 */
export async function serveUntilSignalled(options: ServerOptions, handler: HttpHandler, say: (line: string) => void): Promise<number> {
  // The server itself (http, https, crypto) is loaded only now: the options above are parsed for every command.
  const { startServer, closeOnSignals } = await import('../node/serve/server.js');
  let running;
  try {
    running = await startServer(options, handler);
  } catch (error) {
    await closeAccessLog(options);
    if (error instanceof ServeConfigError) throw new UsageError(error.message);
    throw error;
  }
  const grace = options.shutdownGraceMs ?? SERVER_DEFAULTS.shutdownGraceMs;
  closeOnSignals(running, grace, (signal) => say(`${signal}: not taking new requests; those in flight have ${grace} ms to finish.`));
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  say(`listening on ${options.tls ? 'https' : 'http'}://${host}:${running.port}/`);
  await running.closed;
  await closeAccessLog(options);
  return 0;
}
