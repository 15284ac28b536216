// Step 4 of validateTicket: the walk. Depth-first, in document order, from each root; an rRef is followed to the
// resource it names, which is walked at that use with the base and vocabulary that apply there.
// Long because: the walk is one class whose state is the walk's; it is being changed on two branches (stream, perf) and is split once they have landed.
import type { RRefLink } from '../rules/ticket.js';
import { parseReference } from '../uri/parse.js';
import { resolveReference } from '../uri/resolve.js';
import { containerOf, PartitionSelector, urlHolder } from './containers.js';
import { FileSpecFactsReader, OWN_FACTS, RUNLIST_FACTS, type FileSpecFacts } from './filespec-facts.js';
import { NONE, type Attribute, type ElementTree } from './xml/index.js';
import type { ElementPaths } from './element-paths.js';
import { noteReportedInValue, type TicketDocument } from './read.js';
import { NO_BASE, NO_CONTAINER, type Base, type ReferenceRecorder } from './reference.js';
import type { ResourceIndex } from './resources.js';
import { LINK_RULES } from './ticket-rules.js';
import { UrlRows } from './url-rows.js';
import { DRAFT_XJDF_PREVIEW, FAMILY_ROOTS, isRefElement, XJDF_NAMESPACE, type Family, type UrlAttribute, type Vocabulary } from './vocabulary.js';
import type { RuleCode } from '../rules/codes.js';

/** What applies where the walk stands: passed down to children, and along an rRef to the resource it names. */
interface WalkContext {
  /** The base of FileSpec/@URL (and Preview/@URL): the Directory that applies, the container, or the ticket's folder. */
  fileBase: Base;
  /** The path of the rRef element through which this part was reached, if any. */
  via: string | undefined;
  /**
   * Whether the walk may come here again: inside a resource named by more than one rRef on the chain (each use
   * walks it), or in the resources only cycles name. What is read here is kept for the next time, and reported once.
   */
  again: boolean;
  /** Whose vocabulary applies: the nearest root's; PrintTalk reads XJDF elements by namespace. */
  family: Family | 'PrintTalk';
  /** Under a FileSpec with a Container: FileSpec/@URL names a file inside it. */
  inContainer: boolean;
}

/** Containers nest no deeper than this (a zip in a tar in a gzip is three). */
const MAX_CONTAINER_DEPTH = 32;
/** On the walk's stack: the end of the subtree of a resource reached through an rRef (its ID leaves the chain). */
const LEAVE = -2;
/** On the walk's stack, LEFT - e: the end of the subtree of element e, whose Directory waits on its use (reference-queue.ts). */
const LEFT = -3;

/** Everything the walk reads and writes, passed to it whole. */
export interface WalkInput {
  doc: TicketDocument;
  index: ResourceIndex;
  paths: ElementPaths;
  references: ReferenceRecorder;
  vocabulary: Vocabulary;
  /** The base of every reference but FileSpec/@URL and Preview/@URL: the ticket's folder, or the caller's. */
  documentBase: Base;
}

export class Walk {
  private readonly tree: ElementTree;
  /** The elements the walk may come back to whose Directory is reported: once, however often an rRef reaches them. */
  private readonly reportedDirectories = new Set<number>();
  /** "offset code" of each finding about an rRef (reportOnce). */
  private readonly reportedLinks = new Set<string>();
  /** The elements some use reached through an rRef (1), and how many: one byte per element, not a set of numbers. */
  private readonly reachedAtUse: Uint8Array;
  private reachedCount = 0;
  // A resource used from many places is walked at each use: its start tags are read once. Only there can the walk
  // come back (WalkContext.again; the walk from the roots skips a resource where it stands).
  private readonly presentByElement = new Map<number, readonly Attribute[]>();
  /** The names read from a start tag: its URL attributes', and a FileSpec's or a RunList's facts (by list, then for each). */
  private readonly wantedNames = [new Map<readonly UrlAttribute[], readonly string[]>(), new Map<readonly UrlAttribute[], readonly string[]>(), new Map<readonly UrlAttribute[], readonly string[]>()];
  /** The rows of a vocabulary list that fit an element, by which of them fit (applicable). */
  private readonly fitting = new Map<readonly UrlAttribute[], Map<string, readonly UrlAttribute[]>>();
  private readonly facts: FileSpecFactsReader;
  private readonly partitions: PartitionSelector;
  private readonly rows = new UrlRows();
  // Parallel stacks rather than a frame object per element: a big ticket has millions of elements. An element
  // reached through an rRef carries the ID it puts on the chain; LEAVE marks where its subtree ends.
  private readonly stackElements: number[] = [];
  private readonly stackContexts: WalkContext[] = [];
  private readonly stackViaRef: boolean[] = [];
  private readonly stackIds: Array<string | undefined> = [];
  /**
   * The IDs of the resources on the current rRef chain, against cycles: an ID is on it from when the walk enters
   * the resource through an rRef until it leaves the resource's subtree (each test and step O(1), where a chain
   * copied at each link costs O(n^2) along a chain of n rRefs).
   */
  private readonly onChain = new Map<string, number>();

  constructor(private readonly input: WalkInput) {
    this.tree = input.doc.tree;
    this.reachedAtUse = new Uint8Array(this.tree.size);
    this.facts = new FileSpecFactsReader(this.tree);
    this.partitions = new PartitionSelector(this.tree);
  }

  /**
   * Iterative (deep tickets cannot overflow the stack). Then each resource only rRefs name that no use reached
   * (one that names itself, or two that name only each other) is walked where it stands, its own ID first on
   * its chain: every reference is reported, and the rRef that leads back is a cycle.
   */
  run(): void {
    const tree = this.tree;
    const roots = tree.roots;
    const rootContext: WalkContext = { fileBase: this.input.documentBase, via: undefined, again: false, family: 'JDF', inContainer: false };
    for (let k = roots.length - 1; k >= 0; k--) {
      const rootLocal = tree.local(roots[k]!);
      this.push(roots[k]!, withFamily(rootContext, FAMILY_ROOTS.get(rootLocal) ?? (rootLocal === 'PrintTalk' ? 'PrintTalk' : 'JDF')), false);
    }
    this.drain();
    const { index } = this.input;
    if (this.reachedCount === index.reportedAtUseCount) return;
    const stranded = index.reportedAtUseElements().filter((e) => this.reachedAtUse[e] === 0).sort((a, b) => tree.start(a) - tree.start(b));
    for (const e of stranded) {
      if (this.reachedAtUse[e] !== 0) continue;
      this.push(e, withFamily(rootContext, this.familyAt(e), true), true, index.idOf(e));
      this.drain();
    }
  }

  private drain(): void {
    const tree = this.tree;
    const queue = this.input.references.queue;
    while (this.stackElements.length > 0) {
      queue.flush();
      const e = this.stackElements.pop()!;
      const outer = this.stackContexts.pop()!;
      const viaRef = this.stackViaRef.pop()!;
      const id = this.stackIds.pop();
      if (e === LEAVE) {
        this.leaveChain(id!);
        continue;
      }
      if (e <= LEFT) {
        queue.left(LEFT - e);
        continue;
      }
      // The next sibling shares this element's context, and comes after its subtree; an rRef target's siblings
      // are not part of the use, and its ID is on the chain until its subtree is done.
      const next = viaRef ? NONE : tree.nextSibling(e);
      if (next !== NONE) this.push(next, outer, false);
      if (id !== undefined) {
        this.enterChain(id);
        this.push(LEAVE, outer, false, id);
      }
      const entered = this.enter(e, outer, viaRef);
      if (entered === undefined) continue;
      const inner = this.readAttributes(e, entered);
      if (queue.waitsOn(e)) this.push(LEFT - e, outer, false);
      const first = tree.firstChild(e);
      if (first !== NONE) this.push(first, inner, false);
    }
  }

  private reach(e: number): void {
    if (this.reachedAtUse[e] !== 0) return;
    this.reachedAtUse[e] = 1;
    this.reachedCount++;
  }

  private push(element: number, ctx: WalkContext, viaRef: boolean, id?: string): void {
    this.stackElements.push(element);
    this.stackContexts.push(ctx);
    this.stackViaRef.push(viaRef);
    this.stackIds.push(id);
  }

  private enterChain(id: string): void {
    this.onChain.set(id, (this.onChain.get(id) ?? 0) + 1);
  }

  private leaveChain(id: string): void {
    const n = this.onChain.get(id)! - 1;
    if (n === 0) this.onChain.delete(id);
    else this.onChain.set(id, n);
  }

  /**
   * The context of an element the walk reaches, with its rRef followed and its Container read; undefined when
   * it is not read here (a resource reported at each use, a FileSpec's Container read with its FileSpec).
   */
  private enter(e: number, outer: WalkContext, viaRef: boolean): WalkContext | undefined {
    const tree = this.tree;
    const local = tree.local(e);
    let ctx = outer;
    if (!viaRef && this.input.index.reportedAtUse(e)) return undefined; // reported at each use
    if (viaRef) this.reach(e);
    const parent = tree.parent(e);
    // A FileSpec's Container is read with the FileSpec it holds (containerBase), once per use.
    if (local === 'Container' && parent !== NONE && tree.local(parent) === 'FileSpec') return undefined;

    const family = FAMILY_ROOTS.get(local);
    if (family !== undefined && family !== ctx.family) ctx = withFamily(ctx, family);
    else if (viaRef) ctx = withFamily(ctx, this.familyAt(e));

    if (isRefElement(local)) {
      const rRefAttr = tree.attribute(e, 'rRef');
      if (rRefAttr !== undefined) {
        for (const p of rRefAttr.problems) this.reportOnce(p.code, p.offset, p.args);
        noteReportedInValue(this.input.doc, rRefAttr.problems);
        const target = this.followRef(rRefAttr, ctx);
        if (target !== NONE) {
          const again = ctx.again || !this.input.index.namedOnce(rRefAttr.value);
          this.push(target, withVia(ctx, ctx.via ?? this.input.paths.pathOf(e), again), true, rRefAttr.value);
        }
      }
    }

    if (local === 'FileSpec') {
      const container = tree.findChild(e, (c) => tree.local(c) === 'Container');
      if (container !== NONE) ctx = withFileBase(ctx, this.containerBase(container, ctx, 0), true);
    }
    return ctx;
  }

  /** Reports the element's Directory, URL and identifier attributes; returns the context of its children. */
  private readAttributes(e: number, entered: WalkContext): WalkContext {
    const tree = this.tree;
    const { references, documentBase } = this.input;
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
    const urlAttributes = draft ? DRAFT_XJDF_PREVIEW : this.applicable(e, this.input.vocabulary.attributesOf(readAs, local));
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
    if (!this.input.vocabulary.qualified || !list.some(isQualified)) return list;
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
   * The resource an rRef names, NONE where it names none or leads back (the link rules say so). With `selector`,
   * the ref whose Part selects a partition: that partition, NONE when none matches (a link rule says so too).
   */
  private followRef(rRefAttr: Attribute, ctx: WalkContext, selector = NONE): number {
    const { index, doc } = this.input;
    const id = rRefAttr.value;
    const target = index.resource(id);
    const selected = target !== undefined && selector !== NONE ? this.partitions.select(target, selector) : undefined;
    const onChain = this.onChain.has(id);
    const link: RRefLink = { id, offset: rRefAttr.valueStart, target, notResource: target === undefined ? index.notResource(id) : undefined, onChain };
    if (selected?.unmatched !== undefined) link.unmatchedPart = selected.unmatched;
    for (const rule of LINK_RULES) rule.checkLink(link, doc, (r) => this.reportOnce(rule.meta.code, r.offset, r.args));
    if (target === undefined || onChain) return NONE;
    return selected === undefined ? target : selected.element;
  }

  /** A finding about the file, once for each place: an rRef in a resource used from several places is one place. */
  private reportOnce(code: RuleCode, offset: number, args: Record<string, string | number> = {}): void {
    const key = `${offset} ${code}`;
    if (this.reportedLinks.has(key)) return;
    this.reportedLinks.add(key);
    this.input.doc.findings.add(code, offset, args);
  }

  /** The family whose vocabulary applies to an element reached by an rRef: that of its nearest root ancestor. */
  private familyAt(e: number): Family | 'PrintTalk' {
    const tree = this.tree;
    for (let x = e; x !== NONE; x = tree.parent(x)) {
      const f = FAMILY_ROOTS.get(tree.local(x));
      if (f !== undefined) return f;
    }
    return tree.roots.length > 0 && tree.local(tree.roots[0]!) === 'PrintTalk' ? 'PrintTalk' : 'JDF';
  }

  /**
   * Reports the container a Container element names (Container/FileSpec, or Container/FileSpecRef with its Part
   * selectors), once for this use, and returns the folder its members resolve against.
   */
  private containerBase(container: number, ctx: WalkContext, depth: number): Base {
    if (depth > MAX_CONTAINER_DEPTH) return NO_CONTAINER;
    const tree = this.tree;
    let spec = tree.findChild(container, (c) => tree.local(c) === 'FileSpec');
    let use = ctx;
    let chained: string | undefined; // the ID a FileSpecRef puts on the chain for the containers around it
    if (spec === NONE) {
      const ref = tree.findChild(container, (c) => tree.local(c) === 'FileSpecRef');
      const rRefAttr = ref === NONE ? undefined : tree.attribute(ref, 'rRef');
      if (rRefAttr === undefined) return NO_CONTAINER;
      const target = this.input.index.resource(rRefAttr.value);
      if (target !== undefined) this.reach(target);
      spec = this.followRef(rRefAttr, ctx, ref);
      if (spec === NONE) return NO_CONTAINER;
      use = withVia(ctx, ctx.via ?? this.input.paths.pathOf(ref), ctx.again);
      chained = rRefAttr.value;
    }
    const outer = containerOf(tree, spec);
    let base = use.fileBase;
    if (outer !== NONE) {
      if (chained !== undefined) this.enterChain(chained);
      base = this.containerBase(outer, use, depth + 1);
      if (chained !== undefined) this.leaveChain(chained);
    }
    const holder = urlHolder(tree, spec);
    if (holder === NONE) return NO_CONTAINER;
    // A FileSpec reached through a FileSpecRef may be reached again, through another.
    const resolved = this.input.references.url(holder, tree.attribute(holder, 'URL')!, 'url', base, use.via, outer !== NONE, this.facts.of(holder), use.again || chained !== undefined, false);
    if (base === NO_CONTAINER) return NO_CONTAINER;
    return resolved !== null ? { uri: resolved.replace(/\/?$/, '/'), source: 'container' } : NO_BASE;
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

// `ctx` with some of its fields changed, every field written out: one shape for every context (object spread that
// adds a field took most of the time of an rRef's use), and one shape of argument (a Partial<WalkContext> of the
// changed fields came in several, and deoptimised the walk in a cold run).
function withFamily(ctx: WalkContext, family: WalkContext['family'], again = ctx.again): WalkContext {
  return { fileBase: ctx.fileBase, via: ctx.via, again, family, inContainer: ctx.inContainer };
}

function withVia(ctx: WalkContext, via: string, again: boolean): WalkContext {
  return { fileBase: ctx.fileBase, via, again, family: ctx.family, inContainer: ctx.inContainer };
}

const isQualified = (u: UrlAttribute): boolean => u.elementQname !== undefined || u.elementNamespaces !== undefined || u.attributeNamespaces !== undefined;

/** The base a Directory gives its descendants: itself when absolute, resolved against the document when not. */
function directoryBase(value: string, outer: Base, from: number): Base {
  const trimmed = value.trim();
  if (parseReference(trimmed).scheme !== undefined) return { uri: trimmed, source: 'directory', from };
  return outer.uri !== null ? { uri: resolveReference(trimmed, outer.uri), source: 'directory', from } : { uri: null, source: 'none' };
}

/** `ctx` under a Directory, or (`inContainer`) in a container. */
function withFileBase(ctx: WalkContext, fileBase: Base, inContainer = ctx.inContainer): WalkContext {
  return { fileBase, via: ctx.via, again: ctx.again, family: ctx.family, inContainer };
}
