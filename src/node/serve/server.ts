// The listener behind `jdf-filespec serve`. A first, plain version: every request goes to the handler. The
// limits, authentication, TLS, health and metrics endpoints and graceful shutdown are added here.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { HttpHandler, HttpRequest } from './types.js';

export interface ServerOptions {
  host: string;
  port: number;
}

export interface RunningServer {
  /** The port it listens on (the one chosen when 0 was asked for). */
  port: number;
  /** Stops taking requests and resolves when those in flight have been answered. */
  close(): Promise<void>;
}

function requestOf(message: IncomingMessage, signal: AbortSignal): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { method: message.method ?? 'GET', url: message.url ?? '/', headers, body: message, signal };
}

/** Listens on options.host:options.port and answers every request with handler. */
export async function startServer(options: ServerOptions, handler: HttpHandler): Promise<RunningServer> {
  const server: Server = createServer((message, res) => {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    handler(requestOf(message, aborted.signal)).then(
      (answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('internal error\n');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
