// A streaming reader for MIME multipart bodies (RFC 2046 5.1), fed a chunk at a time. It holds at most one
// header block and a delimiter's length of body, never a part: bodies go to the handler, decoded, as they come.
// This file is the reader's states (top header, preamble, part headers, body, epilogue); held.ts keeps the bytes
// and their places, delimiter.ts scans for boundaries, part.ts reads a part's head and decodes its body.
import { latin1 } from './bytes.js';
import { afterDelimiter, CR, DASH, Delimiter, headerEnd, LF } from './delimiter.js';
import { HeldBytes } from './held.js';
import { field, parseHeaderBlock, parseMediaType, type HeaderField, type MediaType } from './headers.js';
import { PartBody, partHead } from './part.js';
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './limits.js';
import { KNOWN_ENCODINGS } from './transfer.js';
import type { RuleCode } from '../rules/codes.js';
import { boundaryProblems, firstLineBoundary, limitProblem, mimeEndProblem, transferEncodingProblem, type LimitFacts, type PackageProblem } from '../rules/package-read.js';

export type { MultipartLimits } from './limits.js';

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
  problem(code: RuleCode, args: Record<string, string | number>, at: Place, part?: PartHead): void;
}

type State = 'top' | 'preamble' | 'headers' | 'body' | 'epilogue' | 'stopped';

export class MultipartReader {
  private state: State;
  private readonly held = new HeldBytes();
  private delimiter: Delimiter | undefined;
  private body: PartBody | undefined;
  /** Whether the first held byte starts a line where a delimiter may stand with no line break before it (the start of a body). */
  private atBodyStart = false;
  private parts = 0;
  private readonly limits: MultipartLimits;

  constructor(private readonly handler: MultipartHandler, limits: Partial<MultipartLimits> = {}, contentType?: string) {
    this.limits = { ...DEFAULT_MULTIPART_LIMITS, ...limits };
    if (contentType !== undefined) {
      this.state = 'preamble';
      this.atBodyStart = true;
      this.takeBoundary(parseMediaType(contentType), this.held.place(0));
    } else {
      this.state = 'top';
    }
  }

  /** Reading stopped at a limit: the caller may stop feeding it. */
  get stopped(): boolean {
    return this.state === 'stopped';
  }

  get boundaryValue(): string | undefined {
    return this.delimiter?.boundary;
  }

  push(chunk: Uint8Array): void {
    if (this.state === 'stopped' || chunk.length === 0) return;
    this.held.add(chunk);
    this.run(false);
    this.held.keep();
  }

  end(): void {
    if (this.state === 'stopped') return;
    this.run(true);
    const at = this.held.place(this.held.base + this.held.bytes.length);
    const ended = mimeEndProblem({ state: this.state, boundary: this.delimiter?.boundary });
    if (ended) this.report(ended, at, this.body?.head);
    if ((this.state === 'headers' || this.state === 'body') && this.body) this.finishPart(false);
    this.state = 'stopped';
  }

  /** Stops reading (a limit was passed); what comes later is ignored. */
  stop(): void {
    if (this.body) this.finishPart(false);
    this.state = 'stopped';
    this.held.clear();
  }

  private run(final: boolean): void {
    for (;;) {
      const before = this.held.bytes.length;
      const state = this.state;
      if (state === 'top') this.readTop(final);
      else if (state === 'preamble') this.readPreamble(final);
      else if (state === 'headers') this.readHeaders(final);
      else if (state === 'body') this.readBody(final);
      else if (state === 'epilogue') this.held.consume(this.held.bytes.length);
      if (this.state === 'stopped' || (this.state === state && this.held.bytes.length === before)) return;
    }
  }

  private readTop(final: boolean): void {
    const p = this.held.bytes;
    // RFC 2046 5.1.1: a body that starts with a delimiter line has no header; the boundary is that line's.
    if (p.length >= 2 && p[0] === DASH && p[1] === DASH) {
      const eol = p.indexOf(LF);
      if (eol === -1 && !final) return;
      const first = latin1(p, 2, eol === -1 ? p.length : eol).replace(/\r$/, '').trimEnd();
      this.handler.top?.([], null);
      this.report(firstLineBoundary(first), this.held.place(this.held.base));
      this.delimiter = new Delimiter(first);
      this.state = 'preamble';
      this.atBodyStart = true;
      return;
    }
    const end = headerEnd(p);
    if (this.headerTooLong(end, 'the package header') || end === null) return;
    const { fields } = parseHeaderBlock(latin1(p, 0, end.blockEnd));
    const type = parseMediaType(field(fields, 'content-type'));
    this.handler.top?.(fields, type);
    const at = this.held.place(this.held.base);
    this.held.consume(end.next);
    this.state = 'preamble';
    this.atBodyStart = true;
    this.takeBoundary(type, at);
  }

  /** A header block (its end, or none yet) longer than the limit stops the reading. */
  private headerTooLong(end: { blockEnd: number } | null, whose: 'the package header' | 'a part header'): boolean {
    const length = end === null ? this.held.bytes.length : end.blockEnd;
    if (length <= this.limits.maxHeaderBytes) return false;
    this.overLimit({ limit: 'header', whose, max: this.limits.maxHeaderBytes }, this.held.place(this.held.base));
    return true;
  }

  private takeBoundary(type: MediaType | null, at: Place): void {
    const boundary = type !== null && type.type.startsWith('multipart/') ? type.params.get('boundary') : undefined;
    for (const p of boundaryProblems({ type: type?.type ?? null, boundary })) this.report(p, at);
    if (boundary) this.delimiter = new Delimiter(boundary);
  }

  private readPreamble(final: boolean): void {
    const delimiter = this.delimiter;
    if (delimiter === undefined) {
      this.held.consume(this.held.bytes.length);
      return;
    }
    const blen = delimiter.length;
    let from = 0;
    for (;;) {
      const start = delimiter.find(this.held.bytes, from, final, this.atBodyStart);
      if (start === -2) return;
      if (start === -1) {
        this.skip(Math.max(0, this.held.bytes.length - blen - 1));
        return;
      }
      const c = afterDelimiter(this.held.bytes, start + blen, final);
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

  private skip(n: number): void {
    if (n > 0) this.atBodyStart = false;
    this.held.consume(n);
  }

  private readHeaders(final: boolean): void {
    const end = headerEnd(this.held.bytes);
    if (this.headerTooLong(end, 'a part header')) return;
    if (end === null) {
      // The package ends inside a header block: read what there is, as a part with no body.
      if (final) this.startPart(this.held.bytes.length, this.held.bytes.length);
      return;
    }
    if (this.parts >= this.limits.maxParts) {
      this.overLimit({ limit: 'parts', max: this.limits.maxParts }, this.held.place(this.held.base));
      return;
    }
    this.startPart(end.blockEnd, end.next);
  }

  private startPart(blockEnd: number, next: number): void {
    const at = this.held.place(this.held.base);
    const { fields } = parseHeaderBlock(latin1(this.held.bytes, 0, blockEnd));
    const part = partHead(this.parts++, fields, at);
    this.body = new PartBody(part, this.handler);
    this.handler.partStart(part);
    const unknown = transferEncodingProblem(part.encoding, KNOWN_ENCODINGS.has(part.encoding));
    if (unknown) this.report(unknown, at, part);
    this.held.consume(next);
    this.state = 'body';
    this.atBodyStart = true;
  }

  private emit(n: number): void {
    if (n <= 0) return;
    this.atBodyStart = false;
    if (!this.body!.add(this.held.bytes.subarray(0, n), this.limits.maxPartBytes)) {
      this.overLimit({ limit: 'part-bytes', max: this.limits.maxPartBytes }, this.body!.head.at);
      return;
    }
    this.held.consume(n);
  }

  private finishPart(closed: boolean): void {
    const body = this.body!;
    const end = body.end(closed);
    this.body = undefined;
    this.handler.partEnd(body.head, end);
  }

  private readBody(final: boolean): void {
    const delimiter = this.delimiter!;
    const blen = delimiter.length;
    let from = 0;
    for (;;) {
      const p = this.held.bytes;
      const start = delimiter.find(p, from, final, this.atBodyStart);
      if (start === -2) return;
      if (start === -1) {
        // Hold back what could be the start of a delimiter (its CR LF and "--boundary").
        this.emit(final ? p.length : p.length - blen - 2);
        return;
      }
      // RFC 2046 5.1.1: the CRLF before "--boundary" belongs to the delimiter (a bare LF is accepted).
      const bodyEnd = start === 0 ? 0 : start >= 2 && p[start - 2] === CR ? start - 2 : start - 1;
      const c = afterDelimiter(p, start + blen, final);
      if (c.kind === 'more') { this.emit(bodyEnd); return; }
      if (c.kind === 'not') { from = start + 1; continue; }
      this.emit(bodyEnd);
      if (this.state === 'stopped') return;
      this.finishPart(true);
      const restart = start - bodyEnd;
      if (c.kind === 'close') {
        this.held.consume(restart + blen + 2);
        this.state = 'epilogue';
      } else {
        this.held.consume(c.next - bodyEnd);
        this.state = 'headers';
      }
      return;
    }
  }

  private overLimit(limit: LimitFacts, at: Place): void {
    this.report(limitProblem(limit), at, this.body?.head);
    this.stop();
  }

  private report(p: PackageProblem, at: Place, part?: PartHead): void {
    this.handler.problem(p.code, p.args, at, part);
  }
}
