// The buffer a file is read into until its end or a limit, whichever comes first: sized from fstat's hint, doubled
// when full, never past the limit. The one loop behind readRegularFile (asynchronous) and readSmallFileSync.

/** Where the next read goes. */
export interface Room {
  buffer: Buffer;
  offset: number;
  length: number;
}

export class ReadBuffer {
  private buffer: Buffer;
  private filled = 0;

  constructor(private readonly limit: number, sizeHint: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(1, Math.min(limit, sizeHint + 1)));
  }

  /** Room for the next read, the buffer grown when it is full; null once `limit` bytes are in. */
  room(): Room | null {
    if (this.filled === this.buffer.length) {
      if (this.buffer.length >= this.limit) return null;
      const bigger = Buffer.allocUnsafe(Math.min(this.limit, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, 0, this.filled);
      this.buffer = bigger;
    }
    return { buffer: this.buffer, offset: this.filled, length: this.buffer.length - this.filled };
  }

  /** Counts what a read put into the room; false at the end of the file (a read of 0 bytes). */
  took(bytesRead: number): boolean {
    this.filled += bytesRead;
    return bytesRead > 0;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.filled);
  }
}
