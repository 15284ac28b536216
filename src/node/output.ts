// Writing a report that may be bigger than one string can hold: pieces gathered into blocks, each written
// when the stream is ready for it. A reader that goes away (`validate ... | head`) ends the writing quietly.
const BLOCK_CHARS = 1 << 20;

type Stream = NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };

/** EPIPE and its aftermath: the reader closed the pipe, which is not an error of ours. */
export const isClosedPipe = (error: unknown) => ['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'].includes((error as NodeJS.ErrnoException)?.code ?? '');

/**
 * Writes `pieces` to `stream` in blocks of about a million characters, waiting for 'drain' whenever asked to.
 * Resolves true when all was written, false when the reader closed the pipe first (the rest is not formatted);
 * rejects on any other error of the stream.
 */
export async function writePieces(stream: NodeJS.WritableStream, pieces: Iterable<string>): Promise<boolean> {
  const s = stream as Stream;
  let failure: unknown;
  const onError = (error: unknown) => {
    failure ??= error;
  };
  s.on('error', onError);
  const gone = () => failure !== undefined || s.destroyed === true || s.writableEnded === true;
  try {
    let block: string[] = [];
    let size = 0;
    const write = async () => {
      const text = block.join('');
      block = [];
      size = 0;
      if (!s.write(text) && !gone()) await ready(s);
    };
    for (const piece of pieces) {
      if (gone()) break;
      block.push(piece);
      size += piece.length;
      if (size >= BLOCK_CHARS) await write();
    }
    if (size > 0 && !gone()) await write();
    // A failed write reports its error a tick later.
    await new Promise((resolve) => setImmediate(resolve));
    if (failure !== undefined && !isClosedPipe(failure)) throw failure;
    return !gone();
  } finally {
    s.off('error', onError);
  }
}

/**
 * A report written file by file, in blocks of about a million characters (writePieces) instead of a write per
 * file: each write was a system call and a turn of the event loop (writePieces waits one for a failed write's
 * error), 1266 of each over the corpus. On a terminal each file's text is written when it comes, as a person
 * reads it. `add` and `flush` resolve false once the reader has closed the pipe (nothing more is taken).
 */
export class BlockWriter {
  private block: string[] = [];
  private size = 0;
  private open = true;
  private readonly blocks: boolean;

  constructor(private readonly stream: NodeJS.WritableStream) {
    this.blocks = (stream as { isTTY?: boolean }).isTTY !== true;
  }

  async add(pieces: Iterable<string>): Promise<boolean> {
    if (!this.open) return false;
    for (const piece of pieces) {
      this.block.push(piece);
      this.size += piece.length;
    }
    return this.size >= BLOCK_CHARS || !this.blocks ? this.flush() : true;
  }

  /** Writes what was added and not yet written. */
  async flush(): Promise<boolean> {
    if (!this.open || this.size === 0) return this.open;
    const block = this.block;
    this.block = [];
    this.size = 0;
    return (this.open = await writePieces(this.stream, block));
  }
}

/**
 * Until the stream drains, closes or fails; every listener it adds is removed when one comes (a race of once()
 * left the two others on the stream at each wait: "MaxListenersExceededWarning" on a big report).
 */
function ready(s: Stream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off('drain', done);
      s.off('close', done);
      s.off('error', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
    s.on('error', done);
  });
}
