// The listener's options, their defaults and the check of what it must not start with: light (no http, https or
// crypto), so that the CLI's option parsing can use them without loading the server.
import { isIP } from 'node:net';
import type { Writable } from 'node:stream';
import { hasCredentials, type Credentials } from './credentials.js';
import type { HttpRefusal } from './types.js';

/** The defaults of the limits, the CLI's too. */
export const SERVER_DEFAULTS = {
  maxBodyBytes: 64 * 1024 ** 2,
  maxHeaderBytes: 16 * 1024,
  maxConcurrent: 16,
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 20_000,
  shutdownGraceMs: 30_000,
  retryAfterSeconds: 2,
} as const;

export interface ServerOptions {
  host: string;
  port: number;
  /** Largest request body, counted as it arrives: beyond it, 413 and the connection is closed. */
  maxBodyBytes?: number;
  /** Largest request head (Node's maxHeaderSize): beyond it Node answers 431 itself. */
  maxHeaderBytes?: number;
  /** Requests given to the handler at once: beyond it, 503 with Retry-After. */
  maxConcurrent?: number;
  /** Time for a whole request, its body and its answer: then the handler's signal aborts and the client gets
   * 408 (its body was not in yet) or 503 (the answer was not ready). */
  requestTimeoutMs?: number;
  /** Time for a request's head to arrive (Node answers 408 itself); at most requestTimeoutMs. */
  headersTimeoutMs?: number;
  /** Seconds a 503 asks the client to wait (Retry-After). */
  retryAfterSeconds?: number;
  /** Requests must prove one of these (Authorization: Basic or Bearer), else 401. */
  credentials?: Credentials;
  /** Put /healthz, /readyz and /metrics behind the credentials too (by default they are open, for probes). */
  authOps?: boolean;
  /** HTTPS with this key and certificate (PEM). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Listen on an address other than loopback with neither credentials nor TLS. */
  insecure?: boolean;
  /** Words the server's own refusals (the JMF side answers in JMF); plain text by default. */
  refusal?: HttpRefusal;
  /** One JSON line per answered request is written here. */
  accessLog?: Writable;
  /** How long close() lets requests in flight finish. */
  shutdownGraceMs?: number;
}

/** A listener that cannot start as asked: the CLI reports it as a usage error (exit 2). */
export class ServeConfigError extends Error {
  constructor(readonly code: 'insecure' | 'tls' | 'listen' | 'limits', message: string) {
    super(message);
    this.name = 'ServeConfigError';
  }
}

/** Whether host is a loopback address (127.0.0.0/8, ::1, localhost), where no one else can connect. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/** Refuses, as a ServeConfigError, options the listener must not start with. */
export function checkServerOptions(options: ServerOptions): void {
  if (!isLoopback(options.host) && !hasCredentials(options.credentials) && !options.tls && !options.insecure) {
    throw new ServeConfigError('insecure', `Refusing to listen on ${options.host} (not a loopback address) with neither authentication nor TLS: give --auth-basic-file, --auth-bearer-file or --tls-key and --tls-cert, or --insecure to listen anyway.`);
  }
  const limits = limitsOf(options);
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ServeConfigError('limits', `The time for a request's head (${limits.headersTimeoutMs} ms) is longer than the time for the whole request (${limits.requestTimeoutMs} ms).`);
  }
}

/** The limits options sets, with the defaults for those it does not. */
export function limitsOf(options: ServerOptions) {
  const requestTimeoutMs = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs;
  return {
    maxBodyBytes: options.maxBodyBytes ?? SERVER_DEFAULTS.maxBodyBytes,
    maxHeaderBytes: options.maxHeaderBytes ?? SERVER_DEFAULTS.maxHeaderBytes,
    maxConcurrent: options.maxConcurrent ?? SERVER_DEFAULTS.maxConcurrent,
    requestTimeoutMs,
    headersTimeoutMs: options.headersTimeoutMs ?? Math.min(SERVER_DEFAULTS.headersTimeoutMs, requestTimeoutMs),
    retryAfterSeconds: options.retryAfterSeconds ?? SERVER_DEFAULTS.retryAfterSeconds,
  };
}
