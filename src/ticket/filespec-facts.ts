// What a FileSpec says about its file (JDF 1.7 FileSpec: FileSize, CheckSum, MimeType): compared with the
// bytes by validate --check-exists. Never the Password (JDF 1.7 FileSpec/@Password), which is never reported.
import { NONE, type ElementTree } from './xml/index.js';

export interface FileSpecFacts {
  FileSize?: string;
  CheckSum?: string;
  MimeType?: string;
  /** RunList/@NPage and RunList/@Pages of the RunList that holds the FileSpec (JDF: RunList/LayoutElement/FileSpec; XJDF: RunList/FileSpec). */
  NPage?: string;
  Pages?: string;
}

type FactName = keyof FileSpecFacts;
const OWN: readonly FactName[] = ['FileSize', 'CheckSum', 'MimeType'];
const HOLDER: readonly FactName[] = ['NPage', 'Pages'];
/** Equal facts are one object; a ticket whose facts all differ keeps no more than this many in the table. */
const MAX_SHARED = 1024;

/**
 * The facts of the FileSpecs of one ticket: each start tag read once for all its facts, and equal facts one
 * object (100,000 pages of one PDF in one RunList say the same thing; nothing changes a report's facts).
 */
export class FileSpecFactsReader {
  private readonly shared = new Map<string, FileSpecFacts>();

  constructor(private readonly tree: ElementTree) {}

  /** The facts a FileSpec element declares, or undefined when it declares none (or is not a FileSpec). */
  of(element: number): FileSpecFacts | undefined {
    const tree = this.tree;
    if (tree.local(element) !== 'FileSpec') return undefined;
    const values: Array<string | undefined> = [];
    read(tree, element, OWN, values);
    let holder = tree.parent(element);
    if (holder !== NONE && tree.local(holder) === 'LayoutElement') holder = tree.parent(holder);
    if (holder !== NONE && tree.local(holder) === 'RunList') read(tree, holder, HOLDER, values);
    let key = '';
    for (const v of values) key += v === undefined ? '-' : `${v.length}:${v}`;
    if (key.length === values.length) return undefined; // all absent
    let facts = this.shared.get(key);
    if (facts === undefined) {
      facts = {};
      const names = values.length === OWN.length ? OWN : [...OWN, ...HOLDER];
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

/** The values of `names` on the element (trimmed; undefined where absent), appended to `into` in that order. */
function read(tree: ElementTree, element: number, names: readonly FactName[], into: Array<string | undefined>): void {
  const found = tree.attributesNamed(element, names);
  for (const name of names) into.push(found.find((a) => a.name === name)?.value.trim());
}
