// serve's listener run from its options: the ServerOptions made from what serverOptions() parsed (secrets read
// from their files), the access log opened and closed, and the listener started and stopped on a signal. Loaded
// only when serve runs (commands/serve.ts and serve.ts import it then).
import { createWriteStream, openSync, readFileSync } from 'node:fs';
import { parseBasicFile, parseBearerText, type Credentials } from '../node/serve/credentials.js';
import { checkServerOptions, ServeConfigError, SERVER_DEFAULTS, type ServerOptions } from '../node/serve/options.js';
import type { HttpHandler } from '../node/serve/types.js';
import { UsageError } from './define.js';

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
