// The bytes a streaming reader holds back between chunks, and where they are in the package (offset, line,
// column). One buffer, reused, for what was held back and the next chunk: a body streams through without garbage.
import { countLines } from './bytes.js';
import type { Place } from './multipart.js';

export class HeldBytes {
  /** What is held back, then the chunk being read. */
  bytes: Uint8Array = new Uint8Array(0);
  /** Package offset of bytes[0], and the line it is on. */
  base = 0;
  private line = 1;
  private lineStart = 0;
  private scratch = new Uint8Array(0);

  add(chunk: Uint8Array): void {
    this.bytes = this.bytes.length === 0 ? chunk : this.join(chunk);
  }

  /** What is held back must survive the caller reusing its chunk. */
  keep(): void {
    if (this.bytes.length > 0 && this.bytes.buffer !== this.scratch.buffer) {
      const held = this.bytes;
      this.bytes = new Uint8Array(0);
      this.bytes = this.join(held);
    }
  }

  clear(): void {
    this.bytes = new Uint8Array(0);
  }

  /** Drops the first n bytes, keeping the line count. */
  consume(n: number): void {
    if (n <= 0) return;
    const { lines, lastLineStart } = countLines(this.bytes, 0, n);
    if (lines > 0) {
      this.line += lines;
      this.lineStart = this.base + lastLineStart;
    }
    this.base += n;
    this.bytes = this.bytes.subarray(n);
  }

  place(offset: number): Place {
    const rel = offset - this.base;
    if (rel <= 0) return { offset, line: this.line, column: offset - this.lineStart + 1 };
    const { lines, lastLineStart } = countLines(this.bytes, 0, Math.min(rel, this.bytes.length));
    if (lines === 0) return { offset, line: this.line, column: offset - this.lineStart + 1 };
    return { offset, line: this.line + lines, column: offset - (this.base + lastLineStart) + 1 };
  }

  private join(chunk: Uint8Array): Uint8Array {
    const held = this.bytes.length;
    const need = held + chunk.length;
    if (this.scratch.length < need) {
      const grown = new Uint8Array(Math.max(need, this.scratch.length * 2));
      grown.set(this.bytes);
      this.scratch = grown;
    } else if (this.bytes.buffer === this.scratch.buffer) {
      this.scratch.copyWithin(0, this.bytes.byteOffset - this.scratch.byteOffset, this.bytes.byteOffset - this.scratch.byteOffset + held);
    } else {
      this.scratch.set(this.bytes);
    }
    this.scratch.set(chunk, held);
    return this.scratch.subarray(0, need);
  }
}
