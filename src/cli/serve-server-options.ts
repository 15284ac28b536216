// The options of `serve` that belong to its listener (where it listens, its limits, authentication, TLS, access
// log and shutdown), and --keep's parsing, for serve's builder: definitions only, loaded whenever the command table is (for --help and
// --version too), so nothing here imports more than the option helpers. What they are turned into, and the
// listener run from them, is serve-listener.ts, loaded only when serve runs.
// Secrets come from files (or, for a bearer token, a named environment variable), never from the command line,
// where every user of the machine can read them (ps, /proc).
import type { Argv } from 'yargs';
import { KEEP_TAKES, parseKeep } from '../config/keep.js';
import { UsageError } from './define.js';
import { byteSize, duration, wholeNumber } from './numbers.js';

const DURATION = 'a duration such as 500ms, 3s, 2m or 1h';

/** --max-concurrent's default: SERVER_DEFAULTS.maxConcurrent in src/node/serve/options.ts (a test holds them equal). */
export const DEFAULT_MAX_CONCURRENT = 16;

/** Adds the listener's options to serve's builder. */
export function serverOptions<T>(y: Argv<T>) {
  return y
    .option('host', { type: 'string', default: '127.0.0.1', requiresArg: true, describe: 'Address to listen on (not loopback: needs authentication or TLS, or --insecure)' })
    .option('port', { requiresArg: true, default: '8080', coerce: wholeNumber('port', 0), describe: 'Port to listen on, a whole number (0: any free port, printed at start)' })
    .option('max-body', { requiresArg: true, default: '64MiB', coerce: byteSize('max-body', 2 ** 40), describe: 'The listener\'s limit on any request body (a JMF or a MIME package with its parts), a size in bytes such as 64MiB, counted as it arrives (beyond: 413, before the JMF handler reads it). Not the ticket size: that is --max-bytes' })
    .option('max-header-bytes', { requiresArg: true, default: '16KiB', coerce: byteSize('max-header-bytes', 2 ** 30), describe: 'Largest request head, a size in bytes (beyond: 431)' })
    .option('max-concurrent', { requiresArg: true, default: String(DEFAULT_MAX_CONCURRENT), coerce: wholeNumber('max-concurrent', 1), describe: 'Requests answered at once, a whole number (beyond: 503 with Retry-After)' })
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

// serve's --keep (README "Retention"): parsed here, with the other options serve's builder loads, by
// src/config/keep.ts (which reads the config's serve.keep too); serve-retention.ts runs the sweeps.

/** --keep's default when neither it nor the config's serve.keep is given: 30 days (README "Retention" says why). */
export const DEFAULT_KEEP = '30d';

/** --keep's value: a duration as the other options take it (90m, 12h), or in days (30d), or "forever"; 1h or more. */
export function keepDuration(value: unknown): number | 'forever' {
  const text = String(Array.isArray(value) ? value[value.length - 1] : value).trim();
  const keep = parseKeep(text);
  if (keep === undefined) throw new UsageError(`--keep takes ${KEEP_TAKES}, not "${text}".`);
  return keep;
}
