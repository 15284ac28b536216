// Writing a report that may be bigger than one string can hold: pieces gathered into blocks, each written
// when the stream is ready for it.
import { once } from 'node:events';

const BLOCK_CHARS = 1 << 20;

/** Writes `pieces` to `stream` in blocks of about a million characters, waiting for 'drain' whenever asked to. */
export async function writePieces(stream: NodeJS.WritableStream, pieces: Iterable<string>): Promise<void> {
  let block: string[] = [];
  let size = 0;
  const write = async () => {
    const text = block.join('');
    block = [];
    size = 0;
    if (!stream.write(text)) await once(stream, 'drain');
  };
  for (const piece of pieces) {
    block.push(piece);
    size += piece.length;
    if (size >= BLOCK_CHARS) await write();
  }
  if (size > 0) await write();
}
