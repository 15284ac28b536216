// What a package is handed over as: bytes, a source read at any offset, or a stream of chunks. Each is told by
// its own shape: a Node Readable has a read() too (read(size), no size), and a RandomAccess may be iterable, so
// an async iterable is taken as a stream first, and random access needs both a numeric size and read().
import { concat } from '../util/concat.js';
import type { RandomAccess } from './zip.js';

export type PackageInput = Uint8Array | RandomAccess | AsyncIterable<Uint8Array>;

export type Input =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'random'; access: RandomAccess }
  | { kind: 'stream'; chunks: AsyncIterable<Uint8Array> }
  | { kind: 'unknown'; what: string };

export function classifyInput(input: unknown): Input {
  if (input instanceof Uint8Array) return { kind: 'bytes', bytes: input };
  if (input instanceof ArrayBuffer) return { kind: 'bytes', bytes: new Uint8Array(input) };
  if (typeof input === 'object' && input !== null) {
    const o = input as Record<string | symbol, unknown>;
    if (typeof o[Symbol.asyncIterator] === 'function') return { kind: 'stream', chunks: checkedChunks(input as AsyncIterable<unknown>) };
    if (typeof o.size === 'number' && typeof o.read === 'function') return { kind: 'random', access: input as RandomAccess };
  }
  return { kind: 'unknown', what: input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}` };
}

/** A stream's chunks, each one bytes (a Node stream with an encoding set gives strings: not a package's bytes); its failures are the input's. */
async function* checkedChunks(chunks: AsyncIterable<unknown>): AsyncIterable<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        done = true;
        throw new InputError(`the stream failed (${error instanceof Error ? error.message : String(error)})`);
      }
      if (next.done) { done = true; return; }
      const c = next.value;
      if (!(c instanceof Uint8Array)) throw new InputError(`the stream gave ${typeof c === 'string' ? 'text, not bytes (a Node stream with an encoding set)' : `${c === null ? 'null' : `a ${typeof c}`}, not bytes`}`);
      yield c;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}

/** The input itself failed: a read error, a stream of text, an object that is no package input. */
export class InputError extends Error {}

/** The first `min` bytes of a stream (fewer when it ends), and the stream again from its start. */
export async function peek(chunks: AsyncIterable<Uint8Array>, min = 4): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const taken: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < min) {
    const next = await iterator.next();
    if (next.done) { done = true; break; }
    taken.push(new Uint8Array(next.value));
    size += next.value.length;
  }
  const head = concat(taken, size);
  async function* all(): AsyncIterable<Uint8Array> {
    if (head.length > 0) yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, all: all() };
}

/** A whole stream in memory (a zip's directory is at its end), or the size it passed `max` at. */
export async function buffered(chunks: AsyncIterable<Uint8Array>, max: number): Promise<{ bytes: Uint8Array } | { over: number }> {
  const kept: Uint8Array[] = [];
  let size = 0;
  for await (const c of chunks) {
    size += c.length;
    if (size > max) return { over: size };
    kept.push(new Uint8Array(c)); // a copy: a reader may reuse its buffer
  }
  return { bytes: concat(kept, size) };
}
