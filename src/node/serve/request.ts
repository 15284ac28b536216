// One request through the listener: authentication, the ops endpoints, the limits (shutting down, body size,
// requests at once, time), the handler's call, and the answer, refused in options.refusal's words when the
// server says no itself; each request ends in /metrics and the access log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { accessLogTo, pathOf, type AccessEntry } from './access-log.js';
import { authenticate, challenges } from './auth.js';
import { bodyLeft, headersOf, limitedBody, lingerOnClose } from './body.js';
import { hasCredentials } from './credentials.js';
import type { Metrics } from './metrics.js';
import { limitsOf, type ServerOptions } from './options.js';
import type { HttpHandler, HttpRefusal, HttpRequest, HttpResponse } from './types.js';

/** The server's own plain-text refusal. */
export const plainRefusal: HttpRefusal = (status, reason) => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: `${reason}\n`,
});

/** What the requests and the listener's close share: the close sets shuttingDown and waits for idle. */
export interface ServerState {
  shuttingDown: boolean;
  inFlight: number;
  /** Called when the last request in flight has finished (or, with no grace, to stop waiting). */
  idle?: () => void;
}

/** What every request is answered with: fixed when the server starts. */
export interface RequestContext {
  options: ServerOptions;
  limits: ReturnType<typeof limitsOf>;
  refusal: HttpRefusal;
  authOn: boolean;
  log?: (entry: AccessEntry) => void;
  metrics: Metrics;
  handler: HttpHandler;
  state: ServerState;
}

export function requestContext(options: ServerOptions, handler: HttpHandler, metrics: Metrics, state: ServerState): RequestContext {
  const context: RequestContext = {
    options,
    limits: limitsOf(options),
    refusal: options.refusal ?? plainRefusal,
    authOn: hasCredentials(options.credentials ?? {}),
    metrics,
    handler,
    state,
  };
  if (options.accessLog) context.log = accessLogTo(options.accessLog);
  return context;
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

function send(ex: Exchange, answer: HttpResponse, close: boolean): void {
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
}

/** The server's own answer: worded by the refusal, the connection closed when a body may be left unread. */
function refuse(ctx: RequestContext, ex: Exchange, status: number, reason: string, extra: Record<string, string> = {}): void {
  ex.refused = reason;
  const answer = ctx.refusal(status, reason);
  send(ex, { ...answer, headers: { ...answer.headers, ...extra } }, true);
}

function finish(ctx: RequestContext, ex: Exchange): void {
  const seconds = (performance.now() - ex.started) / 1000;
  const aborted = !ex.res.writableFinished;
  const status = ex.res.headersSent ? ex.res.statusCode : 0;
  ctx.metrics.record(ex.message.method ?? 'GET', status, seconds, ex.job);
  if (!ctx.log) return;
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
  ctx.log(entry);
}

function ops(ctx: RequestContext, ex: Exchange, path: string): void {
  const { shuttingDown } = ctx.state;
  const text = (status: number, body: string, type = 'text/plain; charset=utf-8') =>
    send(ex, { status, headers: { 'content-type': type, 'cache-control': 'no-store' }, body }, shuttingDown || bodyLeft(ex.message));
  if (path === '/healthz') text(200, 'ok\n');
  else if (path === '/readyz') text(shuttingDown ? 503 : 200, shuttingDown ? 'shutting down\n' : 'ready\n');
  else text(200, ctx.metrics.text(), 'text/plain; version=0.0.4; charset=utf-8');
}

async function toHandler(ctx: RequestContext, ex: Exchange): Promise<void> {
  const { message } = ex;
  const { limits } = ctx;
  const aborter = new AbortController();
  let over = false;
  const timer = setTimeout(() => {
    // The client's body not all in yet: it is too slow (408); else the answer is (503).
    if (message.complete) refuse(ctx, ex, 503, `The answer took longer than ${limits.requestTimeoutMs} ms.`, { 'retry-after': String(limits.retryAfterSeconds) });
    else refuse(ctx, ex, 408, `The request took longer than ${limits.requestTimeoutMs} ms to arrive.`);
    aborter.abort(new Error('request timeout'));
  }, limits.requestTimeoutMs);
  ex.res.on('close', () => aborter.abort(new Error('client went away')));
  const body = limitedBody(message, limits.maxBodyBytes, aborter.signal, () => {
    over = true;
    refuse(ctx, ex, 413, `The request body is larger than ${limits.maxBodyBytes} bytes.`);
    aborter.abort(new Error('body too large'));
  });
  const headers = headersOf(message);
  // The credentials stop here: the handler gets the user they proved, never the password or token.
  if (ctx.authOn) delete headers.authorization;
  const request: HttpRequest = { method: message.method ?? 'GET', url: message.url ?? '/', headers, body, signal: aborter.signal };
  if (ex.user !== undefined) request.user = ex.user;
  try {
    const answer = await ctx.handler(request);
    // A body the handler did not read to its end is not drained: the connection closes after the answer.
    send(ex, answer, bodyLeft(message) || ctx.state.shuttingDown);
  } catch {
    if (!over) refuse(ctx, ex, 500, 'The request could not be answered (internal error).');
  } finally {
    clearTimeout(timer);
  }
}

/** The listener's 'request' handler: each request checked against the limits in turn, then handed on. */
export function requestListener(ctx: RequestContext): (message: IncomingMessage, res: ServerResponse) => void {
  const { limits, state, metrics } = ctx;
  const credentials = ctx.options.credentials ?? {};
  const retryAfter = { 'retry-after': String(limits.retryAfterSeconds) };
  return (message, res) => {
    const ex: Exchange = { message, res, started: performance.now(), bytes: 0 };
    res.on('close', () => finish(ctx, ex));
    const path = pathOf(message.url ?? '/');
    const isOps = OPS.has(path) && (message.method === 'GET' || message.method === 'HEAD');
    if (ctx.authOn && (!isOps || ctx.options.authOps)) {
      const user = authenticate(message.headers.authorization, credentials);
      if (user === undefined) return refuse(ctx, ex, 401, 'Authentication is required.', { 'www-authenticate': challenges(credentials) });
      ex.user = user;
    }
    if (isOps) return ops(ctx, ex, path);
    if (state.shuttingDown) return refuse(ctx, ex, 503, 'The server is shutting down.', retryAfter);
    const declared = Number(message.headers['content-length'] ?? 0);
    if (declared > limits.maxBodyBytes) return refuse(ctx, ex, 413, `The request body is larger than ${limits.maxBodyBytes} bytes.`);
    if (state.inFlight >= limits.maxConcurrent) return refuse(ctx, ex, 503, `The server is answering ${limits.maxConcurrent} requests already.`, retryAfter);
    state.inFlight += 1;
    metrics.inFlight = state.inFlight;
    toHandler(ctx, ex).finally(() => {
      state.inFlight -= 1;
      metrics.inFlight = state.inFlight;
      if (state.inFlight === 0) state.idle?.();
    });
  };
}
