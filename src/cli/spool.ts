// Text kept in order to be written later, in memory up to a megabyte and in a temporary file beyond it, so that
// holding a big report's text costs the disk, not the heap (validate -f sarif: a big ticket's results wait for its
// own findings, which come last). The files are in one temporary folder, removed by dispose().
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Characters held in memory before they go to the file. */
const HELD_CHARS = 1 << 20;
const READ_BYTES = 1 << 20;

export class Spools {
  private folder: string | undefined;
  private readonly made: Spool[] = [];

  /** A new spool, its file made in this folder when it needs one. */
  spool(): Spool {
    const name = `part-${this.made.length}`;
    const spool = new Spool(() => {
      this.folder ??= mkdtempSync(path.join(tmpdir(), 'jdf-filespec-report-'));
      return path.join(this.folder, name);
    });
    this.made.push(spool);
    return spool;
  }

  /** Closes every spool's file and removes the folder. */
  dispose(): void {
    for (const spool of this.made) spool.close();
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }
}

export class Spool {
  private held: string[] = [];
  private heldChars = 0;
  private fd: number | undefined;

  constructor(private readonly fileName: () => string) {}

  get empty(): boolean {
    return this.fd === undefined && this.heldChars === 0;
  }

  append(text: string): void {
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars >= HELD_CHARS) this.flush();
  }

  /** What was appended, in order, in pieces none of which is empty. */
  * pieces(): Generator<string> {
    if (this.fd !== undefined) {
      const decoder = new StringDecoder('utf8');
      const buffer = Buffer.alloc(READ_BYTES);
      for (let at = 0, read = 0; (read = readSync(this.fd, buffer, 0, READ_BYTES, at)) > 0; at += read) {
        const text = decoder.write(buffer.subarray(0, read));
        if (text !== '') yield text;
      }
      const rest = decoder.end();
      if (rest !== '') yield rest;
    }
    for (const text of this.held) if (text !== '') yield text;
  }

  /** Closes its file and removes it: what was appended is gone. */
  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      rmSync(this.fileName(), { force: true });
    }
    this.fd = undefined;
    this.held = [];
    this.heldChars = 0;
  }

  private flush(): void {
    this.fd ??= openSync(this.fileName(), 'w+', 0o600);
    const text = this.held.join('');
    this.held = [];
    this.heldChars = 0;
    // writeSync may write less than asked: the rest after it.
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done);
  }
}
