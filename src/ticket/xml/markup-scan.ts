// One pass over the whole text for what fast-xml-parser accepts and XML does not: an XML declaration after the
// start, "--" inside a comment, "]]>", an undefined entity or a bare "&" in text, and in every tag, read or not:
// names that are not XML Names, attributes without "=" or quotes or the white space between them, "<", bare "&"
// and undefined entities in values. The same pass runs whether the tree came from the parser or from the scan
// (scan.ts).
import { isNameChar, isNameStartChar, isXmlChar, piEnd, quoted, referenceAt, tagEnd } from './lex.js';

export interface MarkupProblem {
  code:
    | 'xml-declaration-misplaced' | 'comment-double-hyphen' | 'undefined-entity' | 'bare-ampersand' | 'invalid-char-ref'
    | 'lt-in-attribute' | 'tag-malformed' | 'cdata-end-in-text';
  offset: number;
  args: Record<string, string | number>;
}

/**
 * What is wrong with a tag (tag-malformed): `name`, its name is not an XML Name; `space`, no white space before an
 * attribute; `attribute-name`, an attribute's name is not a Name; `no-value`, an attribute without "=" and a
 * value; `unquoted`, a value without quotes; `end-tag`, an end tag holds more than its name.
 */
export type TagProblem = 'name' | 'space' | 'attribute-name' | 'no-value' | 'unquoted' | 'end-tag';

/** Whether a problem of a value was reported already, with the reference that holds it (src/ticket/reference.ts). */
export type AlreadyReported = (code: MarkupProblem['code'], offset: number) => boolean;

// ASCII classes, the hot path of the tag scan: 1, NameStartChar; 2, NameChar (XML 1.0 2.3).
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = (isNameStartChar(c) ? 1 : 0) | (isNameChar(c) ? 2 : 0);
const nameStart = (c: number) => (c < 128 ? (ASCII[c]! & 1) !== 0 : isNameStartChar(c));
const nameChar = (c: number) => (c < 128 ? (ASCII[c]! & 2) !== 0 : isNameChar(c));

/**
 * The first problem of each kind (with how many there are): a ticket with a million bad references in its text
 * gets a handful of findings, not a million. A problem `reported` says was reported already is left out.
 */
export function scanMarkup(text: string, reported: AlreadyReported = () => false): MarkupProblem[] {
  return new MarkupScan(text, reported).run();
}

type Code = MarkupProblem['code'];

/** The first problem of each code, and how many of each there are. */
class Tally {
  private readonly first = new Map<Code, MarkupProblem>();
  private readonly counts = new Map<Code, number>();

  note(code: Code, offset: number, args: Record<string, string | number> = {}): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
    if (!this.first.has(code)) this.first.set(code, { code, offset, args });
  }

  problems(): MarkupProblem[] {
    return [...this.first.values()].map((p) => ({ ...p, args: { ...p.args, more: (this.counts.get(p.code) ?? 1) - 1 } }));
  }
}

/** One pass: run() steps through the constructs, each of which returns its last offset (-1: never closed). */
class MarkupScan {
  private readonly n: number;
  private readonly tally = new Tally();
  // The next "&", "<" and "]]>" in the text, each found once and kept while it lies beyond the stretches checked:
  // a search looks no further than the next one (linear, not n^2).
  private nextAmp = -2;
  private nextLt = -2;
  private nextCdataEnd = -2;

  constructor(private readonly text: string, private readonly reported: AlreadyReported) {
    this.n = text.length;
  }

  run(): MarkupProblem[] {
    this.steps();
    return this.tally.problems();
  }

  // The loop alone: no never-run code after it to deopt its on-stack-optimised form.
  private steps(): void {
    const text = this.text;
    let i = 0;
    while (i < this.n) {
      // The "<" a value's check found is the first at or after i, if it is not before it.
      const lt = this.nextLt >= i ? this.nextLt : text.indexOf('<', i);
      this.checkText(i, lt === -1 ? this.n : lt);
      if (lt === -1) break;
      let end: number;
      if (text.startsWith('<!--', lt)) end = this.comment(lt);
      else if (text.startsWith('<![CDATA[', lt)) end = this.cdata(lt);
      else if (text.charCodeAt(lt + 1) === 0x3f /* "<?" */) end = this.pi(lt);
      else end = text.charCodeAt(lt + 1) === 0x2f ? this.endTag(lt) : this.startTag(lt);
      if (end === -1) break; // the construct is never closed: the rest is not markup we can read
      i = end + 1;
    }
  }

  /** XML 1.0 2.5: the string "--" must not occur within comments (nor end one: "--->"). */
  private comment(lt: number): number {
    const end = this.text.indexOf('-->', lt + 4);
    if (end === -1) return -1;
    const dd = this.text.indexOf('--', lt + 4);
    if (dd < end) this.tally.note('comment-double-hyphen', dd);
    return end + 2;
  }

  /** XML 1.0 2.7: a CDATA section, stepped over. */
  private cdata(lt: number): number {
    const end = this.text.indexOf(']]>', lt + 9);
    return end === -1 ? -1 : end + 2;
  }

  /** XML 1.0 2.8 and 2.6: the declaration only at the very start; "xml" in any case is a reserved PI target. */
  private pi(lt: number): number {
    const target = /^[^\s?]*/.exec(this.text.slice(lt + 2, lt + 64))![0];
    if (target.toLowerCase() === 'xml' && lt !== 0) this.tally.note('xml-declaration-misplaced', lt, { target });
    const end = piEnd(this.text, lt + 1);
    return end === -1 ? -1 : end + 1;
  }

  /** XML 1.0 4.1: references, in text and in values alike. */
  private checkReferences(from: number, to: number, inValue: boolean): void {
    const text = this.text;
    if (this.nextAmp !== -1 && this.nextAmp < from) this.nextAmp = text.indexOf('&', from);
    for (; this.nextAmp !== -1 && this.nextAmp < to; this.nextAmp = text.indexOf('&', this.nextAmp + 1)) {
      const a = this.nextAmp;
      const ref = referenceAt(text, a, to);
      let code: 'bare-ampersand' | 'undefined-entity' | 'invalid-char-ref' | undefined;
      if (ref.kind === 'bare') code = 'bare-ampersand';
      else if (ref.kind === 'entity') code = 'undefined-entity';
      else if (ref.kind === 'char' && !isXmlChar(ref.codePoint!)) code = 'invalid-char-ref';
      if (code === undefined || (inValue && this.reported(code, a))) continue;
      this.tally.note(code, a, code === 'undefined-entity' ? { name: quoted(ref.name!) } : code === 'invalid-char-ref' ? { ref: quoted(text.slice(a, ref.end)) } : {});
    }
  }

  /** XML 1.0 2.4: CharData does not hold "]]>". */
  private checkText(from: number, to: number): void {
    this.checkReferences(from, to, false);
    const text = this.text;
    if (this.nextCdataEnd !== -1 && this.nextCdataEnd < from) this.nextCdataEnd = text.indexOf(']]>', from);
    while (this.nextCdataEnd !== -1 && this.nextCdataEnd + 3 <= to) {
      this.tally.note('cdata-end-in-text', this.nextCdataEnd);
      this.nextCdataEnd = text.indexOf(']]>', this.nextCdataEnd + 3);
    }
  }

  /** XML 1.0 3.1, AttValue ::= '"' ([^<&"] | Reference)* '"' (or between "'"). */
  private checkValue(from: number, to: number): void {
    if (this.nextLt !== -1 && this.nextLt < from) this.nextLt = this.text.indexOf('<', from);
    for (; this.nextLt !== -1 && this.nextLt < to; this.nextLt = this.text.indexOf('<', this.nextLt + 1)) {
      if (!this.reported('lt-in-attribute', this.nextLt)) this.tally.note('lt-in-attribute', this.nextLt);
    }
    this.checkReferences(from, to, true);
  }

  /** XML 1.0 3.1, ETag ::= '</' Name S? '>'. */
  private endTag(lt: number): number {
    if (!nameStart(this.text.charCodeAt(lt + 2))) return this.malformed('name', lt, lt + 2);
    const j = this.skipSpace(this.nameEnd(lt + 3));
    if (j < this.n && this.text.charCodeAt(j) !== 0x3e) return this.malformed('end-tag', lt, j);
    return j < this.n ? j : -1;
  }

  /**
   * XML 1.0 3.1, STag ::= '<' Name (S Attribute)* S? '>', EmptyElemTag the same with '/>'; Attribute ::= Name Eq
   * AttValue. On a problem, the tag ends where the parser ends it (tagEnd).
   */
  private startTag(lt: number): number {
    const text = this.text;
    if (!nameStart(text.charCodeAt(lt + 1))) return this.malformed('name', lt, lt + 1);
    let i = this.nameEnd(lt + 2);
    for (;;) {
      const k = this.skipSpace(i);
      if (k >= this.n) return -1;
      const c = text.charCodeAt(k);
      if (c === 0x3e) return k;
      if (c === 0x2f && text.charCodeAt(k + 1) === 0x3e) return k + 1;
      if (k === i) return this.malformed('space', lt, k);
      if (!nameStart(c)) return this.malformed('attribute-name', lt, k);
      let j = this.skipSpace(this.nameEnd(k + 1));
      if (text.charCodeAt(j) !== 0x3d /* "=" */) return this.malformed('no-value', lt, k, k);
      j = this.skipSpace(j + 1);
      const quote = text.charCodeAt(j);
      if (quote !== 0x22 && quote !== 0x27) return this.malformed('unquoted', lt, j, k);
      const valueEnd = text.indexOf(quote === 0x22 ? '"' : "'", j + 1);
      if (valueEnd === -1) return -1;
      this.checkValue(j + 1, valueEnd);
      i = valueEnd + 1;
    }
  }

  /** Notes a tag-malformed problem at `at` in the tag at `lt`; returns where the parser ends that tag. */
  private malformed(problem: TagProblem, lt: number, at: number, attribute?: number): number {
    const args: Record<string, string | number> = { tag: this.nameOf(lt + (this.text.charCodeAt(lt + 1) === 0x2f ? 2 : 1)), problem };
    if (attribute !== undefined) args.attribute = this.nameOf(attribute);
    this.tally.note('tag-malformed', at, args);
    return tagEnd(this.text, lt + 1, false);
  }

  private nameEnd(from: number): number {
    let j = from;
    while (j < this.n && nameChar(this.text.charCodeAt(j))) j++;
    return j;
  }

  private nameOf(from: number): string {
    return quoted(this.text.slice(from, this.nameEnd(from)));
  }

  private skipSpace(from: number): number {
    const text = this.text;
    let j = from;
    for (let c = text.charCodeAt(j); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(++j));
    return j;
  }
}
