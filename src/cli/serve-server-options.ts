// The options of `serve` that belong to its listener (where it listens; later its limits, authentication and
// TLS), and the ServerOptions made from them. The JMF side of `serve` is in commands/serve.ts.
import type { Argv } from 'yargs';
import type { ServerOptions } from '../node/serve/server.js';
import { wholeNumber } from './numbers.js';

/** Adds the listener's options to serve's builder. */
export function serverOptions<T>(y: Argv<T>) {
  return y
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('port', { requiresArg: true, default: '8080', coerce: wholeNumber('port', 0), describe: 'Port to listen on, a whole number (0: any free port, printed at start)' });
}

/** The listener's options from the parsed arguments. */
export function serverOptionsFrom(args: { host: string; port: number }): ServerOptions {
  return { host: args.host, port: args.port };
}
