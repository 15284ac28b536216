// What the walk (walk.ts) reads from an element's start tag: its Directory, URL and identifier attributes by the
// vocabulary that applies there, and what a FileSpec or a RunList says of the file; each reported with its base.
import { OWN_FACTS, RUNLIST_FACTS, type FileSpecFacts, type FileSpecFactsReader } from './filespec-facts.js';
import type { Base, ReferenceRecorder } from './reference.js';
import { UrlRows } from './url-rows.js';
import { DRAFT_XJDF_PREVIEW, XJDF_NAMESPACE, type Family, type UrlAttribute, type Vocabulary } from './vocabulary.js';
import { directoryBase, withFileBase, type WalkContext } from './walk-context.js';
import { NONE, type Attribute, type ElementTree } from './xml/index.js';

export class AttributeReader {
  /** The elements the walk may come back to whose Directory is reported: once, however often an rRef reaches them. */
  private readonly reportedDirectories = new Set<number>();
  // A resource used from many places is walked at each use: its start tags are read once. Only there can the walk
  // come back (WalkContext.again; the walk from the roots skips a resource where it stands).
  private readonly presentByElement = new Map<number, readonly Attribute[]>();
  /** The names read from a start tag: its URL attributes', and a FileSpec's or a RunList's facts (by list, then for each). */
  private readonly wantedNames = [new Map<readonly UrlAttribute[], readonly string[]>(), new Map<readonly UrlAttribute[], readonly string[]>(), new Map<readonly UrlAttribute[], readonly string[]>()];
  /** The rows of a vocabulary list that fit an element, by which of them fit (applicable). */
  private readonly fitting = new Map<readonly UrlAttribute[], Map<string, readonly UrlAttribute[]>>();
  private readonly rows = new UrlRows();

  constructor(
    private readonly tree: ElementTree,
    private readonly references: ReferenceRecorder,
    private readonly vocabulary: Vocabulary,
    /** The base of every reference but FileSpec/@URL and Preview/@URL. */
    private readonly documentBase: Base,
    private readonly facts: FileSpecFactsReader,
  ) {}

  /** Reports the element's Directory, URL and identifier attributes; returns the context of its children. */
  read(e: number, entered: WalkContext): WalkContext {
    const tree = this.tree;
    const { references, documentBase } = this;
    const local = tree.local(e);
    let ctx = entered;
    // PrintTalk carries XJDF elements by namespace, inside and outside a whole XJDF.
    const readAs: Family | undefined = ctx.family !== 'PrintTalk' ? ctx.family : tree.namespaceOf(e) === XJDF_NAMESPACE ? 'XJDF' : undefined;
    if (readAs === undefined) return ctx;
    // Each test made on every element, only their results combined: a test first made at a ticket's first XJDF
    // Preview deoptimised this method in a cold run.
    const parent = tree.parent(e);
    const isXjdf = readAs === 'XJDF';
    const isPreview = local === 'Preview';
    const inParameter = (parent !== NONE ? tree.local(parent) : '') === 'Parameter';
    const draft = isXjdf && isPreview && inParameter;
    const urlAttributes = draft ? DRAFT_XJDF_PREVIEW : this.applicable(e, this.vocabulary.attributesOf(readAs, local));
    // Its rows as one shape of map: the lists come in several kinds of array (an empty one for most elements).
    const rows = this.rows.of(urlAttributes);
    if (rows.size === 0) return ctx;
    const again = ctx.again;
    // The same scan of the start tag reads what a FileSpec or a RunList says of the file (FileSpecFacts).
    const factsOf = local === 'FileSpec' ? 1 : local === 'RunList' ? 2 : 0;
    const present = this.presentAttributes(e, urlAttributes, factsOf, again);
    if (factsOf === 2) this.facts.noteRunList(e, present);
    if (present.length === 0) return ctx;
    const reportDirectory = !again || !this.reportedDirectories.has(e);
    for (const attr of present) {
      const row = rows.get(attr.name);
      if (row?.role !== 'directory') continue;
      if (reportDirectory) references.url(e, attr, 'directory', documentBase, ctx.via, false, undefined, again, false);
      const base = (attr.name === 'Directory' && (local === 'RunList' || isPreview)) || row.base;
      if (base) ctx = withFileBase(ctx, directoryBase(attr.value, documentBase, e));
    }
    if (again) this.reportedDirectories.add(e);
    let facts: FileSpecFacts | undefined | null = null; // null: not read yet
    for (const attr of present) {
      const name = attr.name;
      const role = rows.get(name)?.role;
      if (role === 'identifier') references.identifier(e, attr, ctx.via);
      else if (role === 'url') {
        // Appendix 4.6: RunList/@Directory is the base of FileSpec/@URL (and Preview/@Directory of Preview/@URL);
        // every other URL resolves against the ticket's folder.
        const forFiles = name === 'URL' && (local === 'FileSpec' || isPreview);
        if (facts === null) facts = factsOf === 1 ? this.facts.of(e, present) : undefined;
        references.url(e, attr, 'url', forFiles ? ctx.fileBase : documentBase, ctx.via, forFiles && ctx.inContainer, facts, again, !forFiles);
      }
    }
    return ctx;
  }

  /** The rows that apply to this element: a vendor's only where the namespaces (or the name as written) match. */
  private applicable(e: number, list: readonly UrlAttribute[]): readonly UrlAttribute[] {
    if (!this.vocabulary.qualified || !list.some(isQualified)) return list;
    const tree = this.tree;
    const fits = (u: UrlAttribute) => {
      const colon = u.attribute.indexOf(':');
      return (u.elementQname === undefined || tree.qname(e) === u.elementQname)
        && (u.elementNamespaces === undefined || u.elementNamespaces.includes(tree.namespaceOf(e) ?? ''))
        && (u.attributeNamespaces === undefined || (colon !== -1 && u.attributeNamespaces.includes(tree.prefixNamespace(e, u.attribute.slice(0, colon)) ?? '')));
    };
    // One list for each set of rows that fit (the names read are kept per list: namesOf).
    const key = list.map((u) => (fits(u) ? '1' : '0')).join('');
    let byKey = this.fitting.get(list);
    if (byKey === undefined) this.fitting.set(list, (byKey = new Map()));
    let fitting = byKey.get(key);
    if (fitting === undefined) byKey.set(key, (fitting = key.includes('0') ? list.filter((_, k) => key[k] === '1') : list));
    return fitting;
  }

  /**
   * The attributes of `list` the element has, and the facts of `factsOf` (1: a FileSpec's, 2: a RunList's), read
   * from its start tag (once, and kept, when `again`).
   */
  private presentAttributes(e: number, list: readonly UrlAttribute[], factsOf: 0 | 1 | 2, again: boolean): readonly Attribute[] {
    if (!again) return this.tree.attributesNamed(e, this.namesOf(list, factsOf));
    let present = this.presentByElement.get(e);
    if (present === undefined) this.presentByElement.set(e, (present = this.tree.attributesNamed(e, this.namesOf(list, factsOf))));
    return present;
  }

  private namesOf(list: readonly UrlAttribute[], factsOf: 0 | 1 | 2): readonly string[] {
    const cache = this.wantedNames[factsOf]!;
    let names = cache.get(list);
    if (names === undefined) {
      const extra = factsOf === 1 ? OWN_FACTS : factsOf === 2 ? RUNLIST_FACTS : [];
      names = [...new Set([...this.rows.of(list).keys(), ...extra])];
      cache.set(list, names);
    }
    return names;
  }
}

const isQualified = (u: UrlAttribute): boolean => u.elementQname !== undefined || u.elementNamespaces !== undefined || u.attributeNamespaces !== undefined;
