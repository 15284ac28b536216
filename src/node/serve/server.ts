// The listener behind `jdf-filespec serve`: HTTP or HTTPS, limits on everything a client controls (body size
// counted as it streams, header size, requests at once, time per request), optional Basic or Bearer
// authentication, /healthz, /readyz and /metrics, an access log, and a graceful shutdown. Every request that passes
// goes to the handler (the JMF front door, or a test's stand-in); what the server refuses itself is worded by
// options.refusal.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerOptions as NodeServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { Server as NetServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { accessLogTo, pathOf, type AccessEntry } from './access-log.js';
import { authenticate, challenges } from './auth.js';
import { hasCredentials } from './credentials.js';
import { Metrics } from './metrics.js';
import { checkServerOptions, limitsOf, ServeConfigError, SERVER_DEFAULTS, type ServerOptions } from './options.js';
import type { HttpHandler, HttpRefusal, HttpRequest, HttpResponse } from './types.js';

export { ServeConfigError, type ServerOptions } from './options.js';

export interface RunningServer {
  /** The port it listens on (the one chosen when 0 was asked for). */
  port: number;
  /** The counters /metrics serves. */
  metrics: Metrics;
  /** Stops taking requests (/readyz 503, new requests 503 Connection: close), lets those in flight finish
   * within graceMs (default options.shutdownGraceMs), then closes every connection; resolves when all is closed. */
  close(graceMs?: number): Promise<void>;
  /** Resolves once close() has finished, however it was called. */
  closed: Promise<void>;
}

/** The server's own plain-text refusal. */
export const plainRefusal: HttpRefusal = (status, reason) => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: `${reason}\n`,
});

function headersOf(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The body over `max` bytes: thrown into the handler's reading when the body grows past the limit. */
class BodyTooLarge extends Error {}

/** The request's body in its chunks, counted as they arrive; past max, onOver() and the reading throws. When the
 * signal aborts (time is up, the client went away, the body is too large) the reading throws too: once the server
 * has answered, the request is detached from its socket and would otherwise wait for the rest forever. */
async function* limitedBody(message: IncomingMessage, max: number, signal: AbortSignal, onOver: () => void): AsyncGenerator<Uint8Array> {
  // Not destroyed when the reading stops early (the limit, or a handler that has read enough): the answer still
  // has to go out on its socket.
  const chunks = message.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  let seen = 0;
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), aborted]);
      if (next.done) return;
      seen += next.value.length;
      if (seen > max) {
        onOver();
        throw new BodyTooLarge(`The request body is larger than ${max} bytes.`);
      }
      yield next.value;
    }
  } finally {
    void chunks.return?.();
  }
}

/** Whether some of the request's body has not arrived yet (a request without one is complete only once its
 * head has been parsed, just after the 'request' event). */
function bodyLeft(message: IncomingMessage): boolean {
  if (message.complete) return false;
  return Number(message.headers['content-length'] ?? 0) > 0 || message.headers['transfer-encoding'] !== undefined;
}

/** How long a connection refused mid-body is still read (and what arrives thrown away) after its answer. */
const LINGER_MS = 2_000;

/**
 * A client that sends its whole body before it reads an answer (Python's http.client, most MIS libraries) gets
 * a reset, not the answer, when the server closes the connection while the body is still coming: the unread
 * bytes make the kernel send RST, which discards the answer on its way. So after such an answer the connection
 * is closed (Node's destroySoon, replaced for this one socket) only once the rest of the body has been read and
 * thrown away (never held), or LINGER_MS later at most: a lingering close (RFC 9112 9.6, Apache's lingering_close).
 */
function lingerOnClose(message: IncomingMessage): void {
  const socket = message.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  const destroySoon = socket.destroySoon;
  if (typeof destroySoon !== 'function') return;
  socket.destroySoon = function lingering(this: typeof socket) {
    const done = () => {
      clearTimeout(timer);
      destroySoon.call(this);
    };
    const timer = setTimeout(done, LINGER_MS);
    if (message.complete) return done();
    message.once('end', done);
    message.resume();
  };
}

const OPS = new Set(['/healthz', '/readyz', '/metrics']);

/** One request's state while it is answered. */
interface Exchange {
  message: IncomingMessage;
  res: ServerResponse;
  started: number;
  bytes: number;
  user?: string;
  job?: { accepted: boolean; returnCode: number };
  refused?: string;
}

/**
 * Listens on options.host:options.port and answers every request that passes the limits with handler.
 * Long because: one closure over the listener's state (in flight, shutting down, the sockets) that each request,
 * refusal and the close share; to be split into a request module and a lifecycle module.
 */
export async function startServer(options: ServerOptions, handler: HttpHandler): Promise<RunningServer> {
  checkServerOptions(options);
  const limits = limitsOf(options);
  const refusal = options.refusal ?? plainRefusal;
  const credentials = options.credentials ?? {};
  const authOn = hasCredentials(credentials);
  const log = options.accessLog ? accessLogTo(options.accessLog) : undefined;
  const metrics = new Metrics();
  let shuttingDown = false;
  let inFlight = 0;
  let idle: (() => void) | undefined;

  const send = (ex: Exchange, answer: HttpResponse, close: boolean): void => {
    const { res } = ex;
    if (res.headersSent || res.destroyed) return;
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
    const headers: Record<string, string> = { ...answer.headers, 'content-length': String(body.length) };
    if (close) headers.connection = 'close';
    // A body not read to its end is not drained into the next request: read and dropped, then the connection closes.
    if (close && bodyLeft(ex.message)) lingerOnClose(ex.message);
    ex.bytes = body.length;
    if (answer.job) ex.job = answer.job;
    res.writeHead(answer.status, headers);
    res.end(ex.message.method === 'HEAD' ? undefined : body);
  };

  /** The server's own answer: worded by the refusal, the connection closed when a body may be left unread. */
  const refuse = (ex: Exchange, status: number, reason: string, extra: Record<string, string> = {}): void => {
    ex.refused = reason;
    const answer = refusal(status, reason);
    send(ex, { ...answer, headers: { ...answer.headers, ...extra } }, true);
  };

  const finish = (ex: Exchange): void => {
    const seconds = (performance.now() - ex.started) / 1000;
    const aborted = !ex.res.writableFinished;
    const status = ex.res.headersSent ? ex.res.statusCode : 0;
    metrics.record(ex.message.method ?? 'GET', status, seconds, ex.job);
    if (!log) return;
    const entry: AccessEntry = {
      time: new Date().toISOString(),
      method: ex.message.method ?? '',
      path: pathOf(ex.message.url ?? '/'),
      status,
      bytes: ex.bytes,
      ms: Math.round(seconds * 10_000) / 10,
    };
    if (ex.user !== undefined) entry.user = ex.user;
    if (ex.job) entry.job = ex.job;
    if (ex.refused !== undefined) entry.refused = ex.refused;
    if (aborted) entry.aborted = true;
    log(entry);
  };

  const ops = (ex: Exchange, path: string): void => {
    const text = (status: number, body: string, type = 'text/plain; charset=utf-8') =>
      send(ex, { status, headers: { 'content-type': type, 'cache-control': 'no-store' }, body }, shuttingDown || bodyLeft(ex.message));
    if (path === '/healthz') text(200, 'ok\n');
    else if (path === '/readyz') text(shuttingDown ? 503 : 200, shuttingDown ? 'shutting down\n' : 'ready\n');
    else text(200, metrics.text(), 'text/plain; version=0.0.4; charset=utf-8');
  };

  const toHandler = async (ex: Exchange): Promise<void> => {
    const { message } = ex;
    const aborter = new AbortController();
    let over = false;
    const timer = setTimeout(() => {
      // The client's body not all in yet: it is too slow (408); else the answer is (503).
      if (message.complete) refuse(ex, 503, `The answer took longer than ${limits.requestTimeoutMs} ms.`, { 'retry-after': String(limits.retryAfterSeconds) });
      else refuse(ex, 408, `The request took longer than ${limits.requestTimeoutMs} ms to arrive.`);
      aborter.abort(new Error('request timeout'));
    }, limits.requestTimeoutMs);
    ex.res.on('close', () => aborter.abort(new Error('client went away')));
    const body = limitedBody(message, limits.maxBodyBytes, aborter.signal, () => {
      over = true;
      refuse(ex, 413, `The request body is larger than ${limits.maxBodyBytes} bytes.`);
      aborter.abort(new Error('body too large'));
    });
    const headers = headersOf(message);
    // The credentials stop here: the handler gets the user they proved, never the password or token.
    if (authOn) delete headers.authorization;
    const request: HttpRequest = { method: message.method ?? 'GET', url: message.url ?? '/', headers, body, signal: aborter.signal };
    if (ex.user !== undefined) request.user = ex.user;
    try {
      const answer = await handler(request);
      // A body the handler did not read to its end is not drained: the connection closes after the answer.
      send(ex, answer, bodyLeft(message) || shuttingDown);
    } catch {
      if (!over) refuse(ex, 500, 'The request could not be answered (internal error).');
    } finally {
      clearTimeout(timer);
    }
  };

  const onRequest = (message: IncomingMessage, res: ServerResponse): void => {
    const ex: Exchange = { message, res, started: performance.now(), bytes: 0 };
    res.on('close', () => finish(ex));
    const path = pathOf(message.url ?? '/');
    const isOps = OPS.has(path) && (message.method === 'GET' || message.method === 'HEAD');
    if (authOn && (!isOps || options.authOps)) {
      const user = authenticate(message.headers.authorization, credentials);
      if (user === undefined) return refuse(ex, 401, 'Authentication is required.', { 'www-authenticate': challenges(credentials) });
      ex.user = user;
    }
    if (isOps) return ops(ex, path);
    if (shuttingDown) return refuse(ex, 503, 'The server is shutting down.', { 'retry-after': String(limits.retryAfterSeconds) });
    const declared = Number(message.headers['content-length'] ?? 0);
    if (declared > limits.maxBodyBytes) return refuse(ex, 413, `The request body is larger than ${limits.maxBodyBytes} bytes.`);
    if (inFlight >= limits.maxConcurrent) return refuse(ex, 503, `The server is answering ${limits.maxConcurrent} requests already.`, { 'retry-after': String(limits.retryAfterSeconds) });
    inFlight += 1;
    metrics.inFlight = inFlight;
    toHandler(ex).finally(() => {
      inFlight -= 1;
      metrics.inFlight = inFlight;
      if (inFlight === 0) idle?.();
    });
  };

  const nodeOptions: NodeServerOptions = {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    // A backstop behind the server's own timer (which answers with the refusal): Node's closes the connection.
    requestTimeout: limits.requestTimeoutMs + 5_000,
    // Node checks both every this often (30 s by default): a slow head would hold a connection that long.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
  let server: Server;
  try {
    server = options.tls
      ? createHttpsServer({ ...nodeOptions, key: options.tls.key, cert: options.tls.cert }, onRequest)
      : createHttpServer(nodeOptions, onRequest);
  } catch (error) {
    throw new ServeConfigError('tls', `The TLS key and certificate cannot be used: ${(error as Error).message}`);
  }
  // Expect: 100-continue (RFC 9110 10.1.1): a body declared too large is refused before it is sent.
  server.on('checkContinue', (message: IncomingMessage, res: ServerResponse) => {
    if (Number(message.headers['content-length'] ?? 0) <= limits.maxBodyBytes && !shuttingDown) res.writeContinue();
    onRequest(message, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ServeConfigError('listen', `Cannot listen on ${options.host} port ${options.port}: ${error.code ?? error.message}.`)));
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address();

  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = (graceMs = options.shutdownGraceMs ?? SERVER_DEFAULTS.shutdownGraceMs): Promise<void> => {
    // Called again while closing, with no grace: what is in flight is cut now.
    if (closing && graceMs === 0) idle?.();
    closing ??= (async () => {
      shuttingDown = true;
      // No new connections. Node's own http close would also drop the idle keep-alive ones at once, where a
      // client may be sending its next request this instant: they stay open through the grace period instead,
      // and what arrives on them is answered 503 Connection: close (a load balancer then goes elsewhere).
      const stopped = new Promise<void>((resolve) => Reflect.apply(NetServer.prototype.close, server, [() => resolve()]));
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      // What is left after the grace period (requests still running, idle keep-alive sockets) is cut; the http
      // close stops Node's timers (its "not running" error is expected: the listener is closed already).
      server.closeAllConnections();
      server.close(() => undefined);
      await stopped;
      markClosed();
    })();
    return closing;
  };
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    metrics,
    close,
    closed,
  };
}

/** Installs SIGTERM and SIGINT handlers that close the server gracefully (a second signal cuts the grace short);
 * for the CLI, which awaits `running.closed` and exits. Returns a function that removes them. */
export function closeOnSignals(running: RunningServer, graceMs?: number, onSignal?: (signal: NodeJS.Signals) => void): () => void {
  let signals = 0;
  const handle = (signal: NodeJS.Signals) => {
    signals += 1;
    onSignal?.(signal);
    void running.close(signals > 1 ? 0 : graceMs);
  };
  const onTerm = () => handle('SIGTERM');
  const onInt = () => handle('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  const remove = () => {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  };
  void running.closed.then(remove);
  return remove;
}
