// A streaming reader for MIME multipart bodies (RFC 2046 5.1), fed a chunk at a time. It holds at most one
// header block and a delimiter's length of body, never a part: bodies go to the handler, decoded, as they come.
import { countLines, encoder, latin1, Needle } from './bytes.js';
import { boundaryProblem, field, parseContentId, parseDisposition, parseHeaderBlock, parseMediaType, type HeaderField, type MediaType } from './headers.js';
import { decoderFor, KNOWN_ENCODINGS, type TransferDecoder } from './transfer.js';

export interface Place {
  /** Byte offset in the package. */
  offset: number;
  /** 1-based line and column (columns count bytes) in the package. */
  line: number;
  column: number;
}

export interface PartHead {
  index: number;
  fields: HeaderField[];
  contentType: MediaType | null;
  /** Without its angle brackets (RFC 2392). */
  contentId?: string;
  location?: string;
  filename?: string;
  /** Lower-case Content-Transfer-Encoding; 7bit when absent (RFC 2045 6.1). */
  encoding: string;
  /** Where the part's header block starts. */
  at: Place;
}

export interface PartEnd {
  encodedBytes: number;
  decodedBytes: number;
  /** False when the package ended (or reading stopped) inside this part. */
  closed: boolean;
  problem?: 'truncated' | 'invalid-chars';
}

export interface MultipartHandler {
  /** The package's own header (absent when the caller gave the Content-Type, as HTTP does). */
  top?(fields: HeaderField[], type: MediaType | null): void;
  partStart(part: PartHead): void;
  /** Decoded bytes (valid during the call only: copy what you keep) of the current part; returning false says no more are wanted (the rest is only checked and counted). */
  partData(part: PartHead, data: Uint8Array): void | boolean;
  partEnd(part: PartHead, end: PartEnd): void;
  problem(code: string, args: Record<string, string | number>, at: Place, part?: PartHead): void;
}

export interface MultipartLimits {
  /** A header block longer than this is not read (default 64 KiB). */
  maxHeaderBytes: number;
  /** More parts than this are not read (default 10,000). */
  maxParts: number;
  /** A part whose encoded body is longer than this stops the reading (default 2 GiB). */
  maxPartBytes: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxHeaderBytes: 64 * 1024, maxParts: 10_000, maxPartBytes: 2 * 1024 ** 3 };

type State = 'top' | 'preamble' | 'headers' | 'body' | 'epilogue' | 'stopped';

const CR = 13;
const LF = 10;
const DASH = 45;

export class MultipartReader {
  private state: State;
  private pending: Uint8Array = new Uint8Array(0);
  /** Package offset of pending[0], and the line it is on. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private boundary: string | undefined;
  private needle: Needle | undefined;
  private part: PartHead | undefined;
  private decoder: TransferDecoder | undefined;
  /** The handler still wants the current part's bytes. */
  private wanted = true;
  private encodedBytes = 0;
  private decodedBytes = 0;
  private parts = 0;
  private readonly limits: MultipartLimits;

  constructor(private readonly handler: MultipartHandler, limits: Partial<MultipartLimits> = {}, contentType?: string) {
    this.limits = { ...DEFAULT_MULTIPART_LIMITS, ...limits };
    if (contentType !== undefined) {
      this.state = 'preamble';
      this.atBodyStart = true;
      this.takeBoundary(parseMediaType(contentType), this.place(0));
    } else {
      this.state = 'top';
    }
  }

  /** Reading stopped at a limit: the caller may stop feeding it. */
  get stopped(): boolean {
    return this.state === 'stopped';
  }

  get boundaryValue(): string | undefined {
    return this.boundary;
  }

  push(chunk: Uint8Array): void {
    if (this.state === 'stopped' || chunk.length === 0) return;
    this.pending = this.pending.length === 0 ? chunk : this.join(chunk);
    this.run(false);
    // What is held back must survive the caller reusing its chunk.
    if (this.pending.length > 0 && this.pending.buffer !== this.scratch.buffer) {
      const held = this.pending;
      this.pending = new Uint8Array(0);
      this.pending = this.join(held);
    }
  }

  end(): void {
    if (this.state === 'stopped') return;
    this.run(true);
    const at = this.place(this.base + this.pending.length);
    if (this.state === 'top' || this.state === 'preamble') {
      if (this.boundary !== undefined) this.handler.problem('mime-boundary-missing', { detail: `the boundary "${this.boundary}" never appears in the body, so the package has no parts` }, at);
      else if (this.state === 'top') this.handler.problem('mime-boundary-missing', { detail: 'the header never ends' }, at);
    } else if (this.state === 'headers' || this.state === 'body') {
      this.handler.problem('mime-unclosed', { boundary: this.boundary ?? '' }, at, this.part);
      if (this.part) this.finishPart(false);
    }
    this.state = 'stopped';
  }

  /** Stops reading (a limit was passed); what comes later is ignored. */
  stop(): void {
    if (this.part) this.finishPart(false);
    this.state = 'stopped';
    this.pending = new Uint8Array(0);
  }

  private place(offset: number): Place {
    const rel = offset - this.base;
    if (rel <= 0) return { offset, line: this.line, column: offset - this.lineStart + 1 };
    const { lines, lastLineStart } = countLines(this.pending, 0, Math.min(rel, this.pending.length));
    if (lines === 0) return { offset, line: this.line, column: offset - this.lineStart + 1 };
    return { offset, line: this.line + lines, column: offset - (this.base + lastLineStart) + 1 };
  }

  /** One buffer, reused, for what was held back and the next chunk: a body streams through without garbage. */
  private scratch = new Uint8Array(0);

  private join(chunk: Uint8Array): Uint8Array {
    const held = this.pending.length;
    const need = held + chunk.length;
    if (this.scratch.length < need) {
      const grown = new Uint8Array(Math.max(need, this.scratch.length * 2));
      grown.set(this.pending);
      this.scratch = grown;
    } else if (this.pending.buffer === this.scratch.buffer) {
      this.scratch.copyWithin(0, this.pending.byteOffset - this.scratch.byteOffset, this.pending.byteOffset - this.scratch.byteOffset + held);
    } else {
      this.scratch.set(this.pending);
    }
    this.scratch.set(chunk, held);
    return this.scratch.subarray(0, need);
  }

  /** Drops the first n pending bytes, keeping the line count. */
  private consume(n: number): void {
    if (n <= 0) return;
    const { lines, lastLineStart } = countLines(this.pending, 0, n);
    if (lines > 0) {
      this.line += lines;
      this.lineStart = this.base + lastLineStart;
    }
    this.base += n;
    this.pending = this.pending.subarray(n);
  }

  private run(final: boolean): void {
    for (;;) {
      const before = this.pending.length;
      const state = this.state;
      if (state === 'top') this.readTop(final);
      else if (state === 'preamble') this.readPreamble(final);
      else if (state === 'headers') this.readHeaders(final);
      else if (state === 'body') this.readBody(final);
      else if (state === 'epilogue') this.consume(this.pending.length);
      if (this.state === 'stopped' || (this.state === state && this.pending.length === before)) return;
    }
  }

  /** The end of a header block: the index just past its blank line, and the block's own end. */
  private headerEnd(): { blockEnd: number; next: number } | null {
    const p = this.pending;
    if (p[0] === LF) return { blockEnd: 0, next: 1 };
    if (p[0] === CR && p[1] === LF) return { blockEnd: 0, next: 2 };
    let i = p.indexOf(LF);
    while (i !== -1) {
      if (p[i + 1] === LF) return { blockEnd: i + 1, next: i + 2 };
      if (p[i + 1] === CR && p[i + 2] === LF) return { blockEnd: i + 1, next: i + 3 };
      if (i + 2 >= p.length) return null;
      i = p.indexOf(LF, i + 1);
    }
    return null;
  }

  private readTop(final: boolean): void {
    // RFC 2046 5.1.1: a body that starts with a delimiter line has no header; the boundary is that line's.
    if (this.pending.length >= 2 && this.pending[0] === DASH && this.pending[1] === DASH) {
      const eol = this.pending.indexOf(LF);
      if (eol === -1 && !final) return;
      const first = latin1(this.pending, 2, eol === -1 ? this.pending.length : eol).replace(/\r$/, '').trimEnd();
      this.handler.top?.([], null);
      this.handler.problem('mime-boundary-missing', { detail: `the package has no Content-Type header; the boundary "${first}" is taken from its first line` }, this.place(this.base));
      this.setBoundary(first);
      this.state = 'preamble';
      this.atBodyStart = true;
      return;
    }
    const end = this.headerEnd();
    if (end === null) {
      if (this.pending.length > this.limits.maxHeaderBytes) this.overLimit(`the package header is longer than ${this.limits.maxHeaderBytes} bytes`, this.place(this.base));
      return;
    }
    if (end.blockEnd > this.limits.maxHeaderBytes) {
      this.overLimit(`the package header is longer than ${this.limits.maxHeaderBytes} bytes`, this.place(this.base));
      return;
    }
    const { fields } = parseHeaderBlock(latin1(this.pending, 0, end.blockEnd));
    const type = parseMediaType(field(fields, 'content-type'));
    this.handler.top?.(fields, type);
    const at = this.place(this.base);
    this.consume(end.next);
    this.state = 'preamble';
    this.atBodyStart = true;
    this.takeBoundary(type, at);
  }

  private takeBoundary(type: MediaType | null, at: Place): void {
    if (type === null || !type.type.startsWith('multipart/')) {
      this.handler.problem('mime-boundary-missing', { detail: type === null ? 'there is no multipart Content-Type' : `the Content-Type is ${type.type}, not multipart` }, at);
      return;
    }
    const boundary = type.params.get('boundary');
    if (boundary === undefined) {
      this.handler.problem('mime-boundary-missing', { detail: `the ${type.type} Content-Type has no boundary parameter` }, at);
      return;
    }
    const problem = boundaryProblem(boundary);
    if (problem) this.handler.problem('mime-boundary-invalid', { boundary, problem }, at);
    if (boundary.length > 0) this.setBoundary(boundary);
  }

  private setBoundary(boundary: string): void {
    this.boundary = boundary;
    this.needle = new Needle(encoder.encode('\n--' + boundary));
  }

  /**
   * What follows "--boundary" at index i: the close delimiter, the end of a delimiter line (transport padding
   * then a line break, RFC 2046 5.1.1), not a delimiter at all (the line goes on), or not known yet.
   */
  private classify(i: number, final: boolean): { kind: 'close' } | { kind: 'next'; next: number } | { kind: 'not' } | { kind: 'more' } {
    const p = this.pending;
    if (i + 2 > p.length) return final ? (i === p.length ? { kind: 'next', next: p.length } : { kind: 'not' }) : { kind: 'more' };
    if (p[i] === DASH && p[i + 1] === DASH) return { kind: 'close' };
    let j = i;
    while (j < p.length && (p[j] === 32 || p[j] === 9)) j++;
    if (j === p.length) return final ? { kind: 'next', next: j } : { kind: 'more' };
    if (p[j] === LF) return { kind: 'next', next: j + 1 };
    if (p[j] === CR) {
      if (j + 1 === p.length) return final ? { kind: 'next', next: j + 1 } : { kind: 'more' };
      if (p[j + 1] === LF) return { kind: 'next', next: j + 2 };
    }
    return { kind: 'not' };
  }

  private readPreamble(final: boolean): void {
    if (this.needle === undefined) {
      this.consume(this.pending.length);
      return;
    }
    const blen = this.needle.bytes.length - 1; // "--boundary"
    let from = 0;
    for (;;) {
      const start = this.findDelimiter(from, final);
      if (start === -2) return;
      if (start === -1) {
        this.skip(Math.max(0, this.pending.length - blen - 1));
        return;
      }
      const c = this.classify(start + blen, final);
      if (c.kind === 'more') { this.skip(start - 1); return; }
      if (c.kind === 'not') { from = start + 1; continue; }
      if (c.kind === 'close') {
        this.skip(start + blen + 2);
        this.state = 'epilogue';
        return;
      }
      this.skip(c.next);
      this.state = 'headers';
      return;
    }
  }

  /** Whether pending[0] starts a line where a delimiter may stand with no line break before it (the start of a body). */
  private atBodyStart = false;

  private skip(n: number): void {
    if (n > 0) this.atBodyStart = false;
    this.consume(n);
  }

  /**
   * The index of the next "--boundary" at the start of a line, at or after `from`: -1 when there is none in
   * what is pending, -2 when more input is needed to tell.
   */
  private findDelimiter(from: number, final: boolean): number {
    if (from === 0 && this.atBodyStart) {
      const blen = this.needle!.bytes.length - 1;
      if (this.pending.length < blen && !final) return -2;
      if (this.startsWithDelimiter()) return 0;
    }
    return this.findNeedle(from);
  }

  private startsWithDelimiter(): boolean {
    const n = this.needle!.bytes;
    for (let k = 1; k < n.length; k++) if (this.pending[k - 1] !== n[k]) return false;
    return true;
  }

  /** The index of "--boundary" that starts a line at or after `from`, or -1. */
  private findNeedle(from: number): number {
    const i = this.needle!.find(this.pending, Math.max(0, from - 1));
    return i === -1 ? -1 : i + 1;
  }

  private readHeaders(final: boolean): void {
    const end = this.headerEnd();
    if (end === null) {
      if (this.pending.length > this.limits.maxHeaderBytes) this.overLimit(`a part header is longer than ${this.limits.maxHeaderBytes} bytes`, this.place(this.base));
      else if (final) {
        // The package ends inside a header block: read what there is, as a part with no body.
        this.startPart(this.pending.length, this.pending.length);
      }
      return;
    }
    if (end.blockEnd > this.limits.maxHeaderBytes) {
      this.overLimit(`a part header is longer than ${this.limits.maxHeaderBytes} bytes`, this.place(this.base));
      return;
    }
    if (this.parts >= this.limits.maxParts) {
      this.overLimit(`the package has more than ${this.limits.maxParts} parts`, this.place(this.base));
      return;
    }
    this.startPart(end.blockEnd, end.next);
  }

  private startPart(blockEnd: number, next: number): void {
    const at = this.place(this.base);
    const { fields } = parseHeaderBlock(latin1(this.pending, 0, blockEnd));
    const disposition = parseDisposition(field(fields, 'content-disposition'));
    const encoding = (field(fields, 'content-transfer-encoding') ?? '7bit').toLowerCase();
    const part: PartHead = { index: this.parts++, fields, contentType: parseMediaType(field(fields, 'content-type')), encoding, at };
    const id = parseContentId(field(fields, 'content-id'));
    if (id !== undefined) part.contentId = id;
    const location = field(fields, 'content-location');
    if (location !== undefined) part.location = location.replace(/\s+/g, '');
    if (disposition?.filename !== undefined) part.filename = disposition.filename;
    this.part = part;
    this.decoder = decoderFor(encoding);
    this.wanted = true;
    this.encodedBytes = 0;
    this.decodedBytes = 0;
    this.handler.partStart(part);
    if (!KNOWN_ENCODINGS.has(encoding)) this.handler.problem('mime-unknown-encoding', { encoding }, at, part);
    this.consume(next);
    this.state = 'body';
    this.atBodyStart = true;
  }

  private emit(n: number): void {
    if (n <= 0) return;
    this.atBodyStart = false;
    const data = this.pending.subarray(0, n);
    this.encodedBytes += n;
    if (this.encodedBytes > this.limits.maxPartBytes) {
      this.overLimit(`a part is longer than ${this.limits.maxPartBytes} bytes`, this.part!.at);
      return;
    }
    if (this.wanted) {
      const decoded = this.decoder!.push(data);
      if (decoded.length > 0) {
        this.decodedBytes += decoded.length;
        if (this.handler.partData(this.part!, decoded) === false) this.wanted = false;
      }
    } else {
      this.decodedBytes += this.decoder!.count(data);
    }
    this.consume(n);
  }

  private finishPart(closed: boolean): void {
    const part = this.part!;
    const { rest, problem } = this.decoder!.end() as { rest: Uint8Array; problem?: 'truncated' | 'invalid-chars' };
    if (rest.length > 0) {
      this.decodedBytes += rest.length;
      if (this.wanted) this.handler.partData(part, rest);
    }
    const end: PartEnd = { encodedBytes: this.encodedBytes, decodedBytes: this.decodedBytes, closed };
    if (problem) end.problem = problem;
    this.part = undefined;
    this.decoder = undefined;
    this.handler.partEnd(part, end);
  }

  private readBody(final: boolean): void {
    const blen = this.needle!.bytes.length - 1;
    let from = 0;
    for (;;) {
      const start = this.findDelimiter(from, final);
      if (start === -2) return;
      if (start === -1) {
        // Hold back what could be the start of a delimiter (its CR LF and "--boundary").
        this.emit(final ? this.pending.length : this.pending.length - blen - 2);
        return;
      }
      // RFC 2046 5.1.1: the CRLF before "--boundary" belongs to the delimiter (a bare LF is accepted).
      const bodyEnd = start === 0 ? 0 : start >= 2 && this.pending[start - 2] === CR ? start - 2 : start - 1;
      const c = this.classify(start + blen, final);
      if (c.kind === 'more') { this.emit(bodyEnd); return; }
      if (c.kind === 'not') { from = start + 1; continue; }
      this.emit(bodyEnd);
      if (this.state === 'stopped') return;
      this.finishPart(true);
      const restart = start - bodyEnd;
      if (c.kind === 'close') {
        this.consume(restart + blen + 2);
        this.state = 'epilogue';
      } else {
        this.consume(c.next - bodyEnd);
        this.state = 'headers';
      }
      return;
    }
  }

  private overLimit(what: string, at: Place): void {
    this.handler.problem('package-limit', { what }, at, this.part);
    this.stop();
  }
}
