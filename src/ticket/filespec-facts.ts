// What a FileSpec says about its file (JDF 1.7 FileSpec: FileSize, CheckSum, MimeType): compared with the
// bytes by validate --check-exists. Never the Password (JDF 1.7 FileSpec/@Password), which is never reported.
import { NONE, type Attribute, type ElementTree } from './xml/index.js';

export interface FileSpecFacts {
  FileSize?: string;
  CheckSum?: string;
  MimeType?: string;
  /** RunList/@NPage and RunList/@Pages of the RunList that holds the FileSpec (JDF: RunList/LayoutElement/FileSpec; XJDF: RunList/FileSpec). */
  NPage?: string;
  Pages?: string;
}

type FactName = keyof FileSpecFacts;
/** The facts of a FileSpec's own start tag. */
export const OWN_FACTS: readonly FactName[] = ['FileSize', 'CheckSum', 'MimeType'];
/** The facts of the start tag of the RunList that holds it. */
export const RUNLIST_FACTS: readonly FactName[] = ['NPage', 'Pages'];
/** Equal facts are one object; a ticket whose facts all differ keeps no more than this many in the table. */
const MAX_SHARED = 1024;

/**
 * The facts of the FileSpecs of one ticket: read in the scan of each start tag the walk makes for its URL
 * attributes (or in one scan of their own), and equal facts one object (100,000 pages of one PDF in one RunList
 * say the same thing; nothing changes a report's facts).
 */
export class FileSpecFactsReader {
  private readonly shared = new Map<string, FileSpecFacts>();
  /** The RunList whose start tag the walk read last, and its facts. */
  private runList = NONE;
  /** Its values of RUNLIST_FACTS (each array here is written over by index: an array's length set to 0 lets its room go). */
  private readonly runListValues = new Array<string | undefined>(RUNLIST_FACTS.length);
  /** The values of the last facts made or found, and those facts: the next FileSpec mostly says the same. */
  private lastValues: ReadonlyArray<string | undefined> = [];
  private lastFacts: FileSpecFacts | undefined;
  private readonly scratch = new Array<string | undefined>(OWN_FACTS.length + RUNLIST_FACTS.length);

  constructor(private readonly tree: ElementTree) {}

  /** The walk read this RunList's start tag: `attributes` hold those of RUNLIST_FACTS it has. */
  noteRunList(element: number, attributes: readonly Attribute[]): void {
    this.runList = element;
    pick(attributes, RUNLIST_FACTS, this.runListValues, 0);
  }

  /**
   * The facts a FileSpec element declares, or undefined when it declares none (or is not a FileSpec). `own`: the
   * attributes of OWN_FACTS it has, when its start tag was read already.
   */
  of(element: number, own?: readonly Attribute[]): FileSpecFacts | undefined {
    const tree = this.tree;
    if (tree.local(element) !== 'FileSpec') return undefined;
    // Read into one scratch list; copied only when the facts differ from the last (mostly they do not).
    const values = this.scratch;
    let count = pick(own ?? tree.attributesNamed(element, OWN_FACTS), OWN_FACTS, values, 0);
    let holder = tree.parent(element);
    if (holder !== NONE && tree.local(holder) === 'LayoutElement') holder = tree.parent(holder);
    if (holder !== NONE && tree.local(holder) === 'RunList') {
      if (holder === this.runList) for (const v of this.runListValues) values[count++] = v;
      else count = pick(tree.attributesNamed(holder, RUNLIST_FACTS), RUNLIST_FACTS, values, count);
    }
    if (sameValues(values, count, this.lastValues)) return this.lastFacts;
    this.lastValues = values.slice(0, count);
    this.lastFacts = this.find(this.lastValues);
    return this.lastFacts;
  }

  private find(values: ReadonlyArray<string | undefined>): FileSpecFacts | undefined {
    let key = '';
    for (const v of values) key += v === undefined ? '-' : `${v.length}:${v}`;
    if (key.length === values.length) return undefined; // all absent
    let facts = this.shared.get(key);
    if (facts === undefined) {
      facts = {};
      const names = values.length === OWN_FACTS.length ? OWN_FACTS : [...OWN_FACTS, ...RUNLIST_FACTS];
      for (let k = 0; k < names.length; k++) {
        const v = values[k];
        if (v !== undefined) facts[names[k]!] = v;
      }
      if (this.shared.size >= MAX_SHARED) this.shared.clear();
      this.shared.set(key, facts);
    }
    return facts;
  }
}

/** Whether the first `count` of `a` are `b`. */
function sameValues(a: ReadonlyArray<string | undefined>, count: number, b: ReadonlyArray<string | undefined>): boolean {
  if (count !== b.length) return false;
  for (let k = 0; k < count; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The values of `names` among `attributes` (trimmed; undefined where absent), written into `into` from `at` in that order; where they end. */
function pick(attributes: readonly Attribute[], names: readonly FactName[], into: Array<string | undefined>, at: number): number {
  let end = at;
  for (const name of names) {
    let value: string | undefined;
    for (const a of attributes) {
      if (a.name !== name) continue;
      value = a.value.trim();
      break;
    }
    into[end++] = value;
  }
  return end;
}
