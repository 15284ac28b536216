// A request's body and head as the listener reads them: the headers flattened, the body counted as it streams and
// cut at its limit, and a connection refused mid-body closed only once the rest has been read and dropped.
import type { IncomingMessage } from 'node:http';

export function headersOf(message: IncomingMessage): Record<string, string> {
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
export async function* limitedBody(message: IncomingMessage, max: number, signal: AbortSignal, onOver: () => void): AsyncGenerator<Uint8Array> {
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
export function bodyLeft(message: IncomingMessage): boolean {
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
export function lingerOnClose(message: IncomingMessage): void {
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
