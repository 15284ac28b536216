// The element table of a parsed ticket.
import { findAttribute, localName, NO_PROBLEMS, readAttribute, type Attribute, type AttributeProblem } from './attributes.js';
import { attributesStart, newSpan, nextAttribute, type AttributeSpan } from './lex.js';

/** What attributesNamed finds in most start tags (shared: read, never changed). */
const NO_ATTRIBUTES: readonly Attribute[] = [];

/** A placeholder in the scratch array of attributesNamed, so that it keeps no attribute (nor its value) alive. */
const NO_ATTRIBUTE: Attribute = { name: '', value: '', valueStart: 0, valueEnd: 0, offsets: undefined, problems: NO_PROBLEMS };

/** The name of `wanted` the attribute in `span` has, or undefined. */
function wantedName(text: string, span: AttributeSpan, wanted: readonly string[]): string | undefined {
  const length = span.nameEnd - span.nameStart;
  for (const w of wanted) if (w.length === length && text.startsWith(w, span.nameStart)) return w;
  return undefined;
}

/** No element: the parent of a root, the first child of a leaf, the next sibling of a last child. */
export const NONE = -1;

// The marks of a start tag: what its text may hold.
const MAY_HAVE_ID = 1;
const MAY_HAVE_URL = 2;

/**
 * The elements of a ticket, each a number: its start tag's offset, parent, first child, next sibling and name
 * in typed arrays. A big ticket has millions of elements, and an object per element (with its links) would
 * cost four times as much as the text; this costs 21 bytes an element.
 */
export class ElementTree {
  /** The root elements (more than one only in a broken ticket). */
  readonly roots: number[] = [];
  private count = 0;
  private starts: Int32Array;
  private parents: Int32Array;
  private firstChildren: Int32Array;
  private nextSiblings: Int32Array;
  private names: Int32Array;
  /** MAY_HAVE_ID where the start tag's text holds "ID", MAY_HAVE_URL where it holds "URL": elsewhere no attribute of those can be. */
  private marks: Uint8Array;
  private readonly nameIds = new Map<string, number>();
  private readonly qnames: string[] = [];
  private readonly locals: string[] = [];
  /** Filled by each attribute scan (none is reentrant). */
  private readonly span = newSpan();
  /**
   * The last list of names attributesNamed was asked for in which every name holds "URL", and the last in which
   * one does not (urlNames): the walk asks for a few lists, one after the other.
   */
  private urlList: readonly string[] | undefined;
  private otherList: readonly string[] | undefined;
  /** The attributes attributesNamed has found so far in a start tag, and those of them whose problems it copied. */
  private readonly found: Attribute[] = [];
  private copied: Set<Attribute> | undefined;

  constructor(readonly text: string, capacity = 256) {
    this.starts = new Int32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.firstChildren = new Int32Array(capacity);
    this.nextSiblings = new Int32Array(capacity);
    this.names = new Int32Array(capacity);
    this.marks = new Uint8Array(capacity);
  }

  /**
   * Adds an element after `previous`, the last child `parent` has so far (NONE: it is the first). `mayHaveId`,
   * `mayHaveUrl`: false only when its start tag is known not to hold "ID", "URL" (the scan looks).
   */
  add(qname: string, start: number, parent: number, previous: number, mayHaveId = true, mayHaveUrl = true): number {
    if (this.count === this.starts.length) this.grow();
    const e = this.count++;
    let name = this.nameIds.get(qname);
    if (name === undefined) {
      name = this.qnames.length;
      this.nameIds.set(qname, name);
      this.qnames.push(qname);
      this.locals.push(localName(qname));
    }
    this.starts[e] = start;
    this.parents[e] = parent;
    this.firstChildren[e] = NONE;
    this.nextSiblings[e] = NONE;
    this.names[e] = name;
    this.marks[e] = (mayHaveId ? MAY_HAVE_ID : 0) | (mayHaveUrl ? MAY_HAVE_URL : 0);
    if (parent === NONE) this.roots.push(e);
    else if (previous === NONE) this.firstChildren[parent] = e;
    else this.nextSiblings[previous] = e;
    return e;
  }

  private grow(): void {
    this.resize(Math.max(256, this.starts.length * 2));
  }

  /** The tree is built: its arrays hold its elements and no room for more (grown by doubling, up to half was free). */
  trim(): void {
    if (this.count < this.starts.length) this.resize(this.count);
  }

  private resize(capacity: number): void {
    const count = this.count;
    const to = <T extends Int32Array | Uint8Array>(a: T, b: T): T => {
      b.set(a.subarray(0, count));
      return b;
    };
    this.starts = to(this.starts, new Int32Array(capacity));
    this.parents = to(this.parents, new Int32Array(capacity));
    this.firstChildren = to(this.firstChildren, new Int32Array(capacity));
    this.nextSiblings = to(this.nextSiblings, new Int32Array(capacity));
    this.names = to(this.names, new Int32Array(capacity));
    this.marks = to(this.marks, new Uint8Array(capacity));
  }

  /** How many elements there are; they are numbered from 0. */
  get size(): number {
    return this.count;
  }

  /** The local name ("FileSpec" for "jdf:FileSpec"). */
  local(e: number): string {
    return this.locals[this.names[e]!]!;
  }

  /** The name as written, prefix included. */
  qname(e: number): string {
    return this.qnames[this.names[e]!]!;
  }

  /** Offset of the start tag's "<" in the text. */
  start(e: number): number {
    return this.starts[e]!;
  }

  parent(e: number): number {
    return this.parents[e]!;
  }

  firstChild(e: number): number {
    return this.firstChildren[e]!;
  }

  nextSibling(e: number): number {
    return this.nextSiblings[e]!;
  }

  /** Whether the start tag may hold an attribute named ID: a resource's, which rRefs name and paths show. */
  mayHaveId(e: number): boolean {
    return (this.marks[e]! & MAY_HAVE_ID) !== 0;
  }

  /** The attribute with exactly this name (no prefix), read from the start tag in the text (not kept: most are asked for once). */
  attribute(e: number, name: string): Attribute | undefined {
    return findAttribute(this.text, this.starts[e]!, name);
  }

  /** The first child that passes `test`, or NONE. */
  findChild(e: number, test: (child: number) => boolean): number {
    for (let c = this.firstChildren[e]!; c !== NONE; c = this.nextSiblings[c]!) if (test(c)) return c;
    return NONE;
  }

  /**
   * The attributes named exactly as `wanted` holds, in one scan of the start tag. As with `attribute`, an
   * attribute without a prefix is in no namespace (a prefixed name is another attribute unless asked for as
   * written), and a second attribute of the same name is a duplicate-attribute problem on the first.
   */
  attributesNamed(e: number, wanted: readonly string[]): readonly Attribute[] {
    // Most elements are asked only for CommentURL and PipeURL, and their start tags do not hold "URL".
    if ((this.marks[e]! & MAY_HAVE_URL) === 0 && this.urlNames(wanted)) return NO_ATTRIBUTES;
    // Gathered in a scratch array and copied at the end: one array of the right length, not one grown by push
    // (an element has one to three of the attributes asked for, and each of them was an array of 17).
    const found = this.found;
    let count = 0;
    const text = this.text;
    const span = this.span;
    for (let i = attributesStart(text, this.starts[e]!); (i = nextAttribute(text, i, span)) !== -1; ) {
      const name = wantedName(text, span, wanted);
      if (name === undefined) continue;
      let earlier: Attribute | undefined;
      for (let k = 0; k < count; k++) if (found[k]!.name === name) { earlier = found[k]; break; }
      if (earlier === undefined) found[count++] = readAttribute(text, name, span.valueStart, span.valueEnd);
      else this.duplicate(earlier, span.nameStart, name);
    }
    if (count === 0) return NO_ATTRIBUTES;
    const out = found.slice(0, count);
    for (let k = 0; k < count; k++) found[k] = NO_ATTRIBUTE; // the tree keeps no value alive
    this.copied = undefined;
    return out;
  }

  /**
   * A second attribute of the name of `earlier`: a duplicate-attribute problem on it, pushed onto in place
   * (copying the array per duplicate is O(n^2) in a start tag of n duplicates). An attribute's own array may be
   * shared, so the first duplicate copies it. Out of line: the hot loop never runs it.
   */
  private duplicate(earlier: Attribute, offset: number, name: string): void {
    this.copied ??= new Set();
    if (!this.copied.has(earlier)) {
      this.copied.add(earlier);
      earlier.problems = [...earlier.problems];
    }
    (earlier.problems as AttributeProblem[]).push({ code: 'duplicate-attribute', offset, args: { name } });
  }

  /**
   * Whether every name of `wanted` holds "URL" (kept for the last list of each answer: the walk asks for a few
   * lists in turn, CommentURL and PipeURL between a RunList's and a FileSpec's, and one kept list missed each time).
   */
  private urlNames(wanted: readonly string[]): boolean {
    if (wanted === this.urlList) return true;
    if (wanted === this.otherList) return false;
    let all = true;
    for (const w of wanted) if (!w.includes('URL')) all = false;
    if (all) this.urlList = wanted;
    else this.otherList = wanted;
    return all;
  }

  /** Every attribute as [qualified name, value as written] (for small elements such as Part). */
  rawAttributes(e: number): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    this.scanAttributes(e, (nameStart, nameEnd, valueStart, valueEnd) => out.push([this.text.slice(nameStart, nameEnd), this.text.slice(valueStart, valueEnd)]));
    return out;
  }

  /** Namespaces in XML 1.0 section 6.2: the namespace of the element's prefix, from the nearest declaration. */
  namespaceOf(e: number): string | undefined {
    const qname = this.qname(e);
    const colon = qname.indexOf(':');
    return this.prefixNamespace(e, colon === -1 ? '' : qname.slice(0, colon));
  }

  /** The namespace a prefix ("": the default namespace) is bound to where the element stands (section 6.1). */
  prefixNamespace(e: number, prefix: string): string | undefined {
    const declaration = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
    for (let x = e; x !== NONE; x = this.parent(x)) {
      let found: string | undefined;
      this.scanAttributes(x, (nameStart, nameEnd, valueStart, valueEnd) => {
        if (found === undefined && this.text.slice(nameStart, nameEnd) === declaration) found = this.text.slice(valueStart, valueEnd);
      });
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Calls `visit` for each attribute of the start tag, with the offsets of its name and value. */
  private scanAttributes(e: number, visit: (nameStart: number, nameEnd: number, valueStart: number, valueEnd: number) => void): void {
    const text = this.text;
    const span = newSpan();
    for (let i = attributesStart(text, this.starts[e]!); (i = nextAttribute(text, i, span)) !== -1; ) visit(span.nameStart, span.nameEnd, span.valueStart, span.valueEnd);
  }
}
