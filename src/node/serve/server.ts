// The listener behind `jdf-filespec serve`: HTTP or HTTPS, limits on everything a client controls (body size
// counted as it streams, header size, requests at once, time per request), optional Basic or Bearer
// authentication, /healthz, /readyz and /metrics, an access log, and a graceful shutdown. Every request that passes
// goes to the handler (the JMF front door, or a test's stand-in); what the server refuses itself is worded by
// options.refusal. This module is the listener's lifecycle (listen, TLS, connections, readiness, graceful close,
// signals); one request's path through the limits is in request.ts, sharing a ServerState with it.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerOptions as NodeServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { Server as NetServer } from 'node:net';
import { Metrics } from './metrics.js';
import { checkServerOptions, ServeConfigError, SERVER_DEFAULTS, type ServerOptions } from './options.js';
import { requestContext, requestListener, type RequestContext, type ServerState } from './request.js';
import type { HttpHandler } from './types.js';

export { ServeConfigError, type ServerOptions } from './options.js';
export { plainRefusal } from './request.js';

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

/** The HTTP or HTTPS server with Node's own limits set from ours, every request (and Expect: 100-continue) to onRequest. */
function createListener(ctx: RequestContext, onRequest: (message: IncomingMessage, res: ServerResponse) => void): Server {
  const { options, limits, state } = ctx;
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
    if (Number(message.headers['content-length'] ?? 0) <= limits.maxBodyBytes && !state.shuttingDown) res.writeContinue();
    onRequest(message, res);
  });
  return server;
}

function listen(server: Server, options: ServerOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ServeConfigError('listen', `Cannot listen on ${options.host} port ${options.port}: ${error.code ?? error.message}.`)));
    server.listen(options.port, options.host, resolve);
  });
}

/** The graceful close: once, whoever calls it; closed resolves when it has finished. */
function closerOf(server: Server, state: ServerState, defaultGraceMs: number): Pick<RunningServer, 'close' | 'closed'> {
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = (graceMs = defaultGraceMs): Promise<void> => {
    // Called again while closing, with no grace: what is in flight is cut now.
    if (closing && graceMs === 0) state.idle?.();
    closing ??= (async () => {
      state.shuttingDown = true;
      // No new connections. Node's own http close would also drop the idle keep-alive ones at once, where a
      // client may be sending its next request this instant: they stay open through the grace period instead,
      // and what arrives on them is answered 503 Connection: close (a load balancer then goes elsewhere).
      const stopped = new Promise<void>((resolve) => Reflect.apply(NetServer.prototype.close, server, [() => resolve()]));
      if (state.inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          state.idle = () => {
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
  return { close, closed };
}

/** Listens on options.host:options.port and answers every request that passes the limits with handler. */
export async function startServer(options: ServerOptions, handler: HttpHandler): Promise<RunningServer> {
  checkServerOptions(options);
  const metrics = new Metrics();
  const state: ServerState = { shuttingDown: false, inFlight: 0 };
  const ctx = requestContext(options, handler, metrics, state);
  const server = createListener(ctx, requestListener(ctx));
  await listen(server, options);
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    metrics,
    ...closerOf(server, state, options.shutdownGraceMs ?? SERVER_DEFAULTS.shutdownGraceMs),
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
