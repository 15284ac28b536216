// Step 4 of validateTicket: the walk. Depth-first, in document order, from each root; an rRef is followed to the
// resource it names, which is walked at that use with the base and vocabulary that apply there. What applies where
// it stands is walk-context.ts; where an rRef leads, rref-follow.ts; what a start tag says, walk-attributes.ts; the
// base a Container gives, container-base.ts.
import { ContainerBases } from './container-base.js';
import { FileSpecFactsReader } from './filespec-facts.js';
import { NONE, type ElementTree } from './xml/index.js';
import type { ElementPaths } from './element-paths.js';
import { noteReportedInValue, type TicketDocument } from './read.js';
import type { Base, ReferenceRecorder } from './reference.js';
import type { ResourceIndex } from './resources.js';
import { RRefFollower } from './rref-follow.js';
import { FAMILY_ROOTS, isRefElement, type Vocabulary } from './vocabulary.js';
import { AttributeReader } from './walk-attributes.js';
import { familyAt, withFamily, withFileBase, withVia, type WalkContext } from './walk-context.js';

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
  private readonly links: RRefFollower;
  private readonly attributes: AttributeReader;
  private readonly containers: ContainerBases;
  // Parallel stacks rather than a frame object per element: a big ticket has millions of elements. An element
  // reached through an rRef carries the ID it puts on the chain; LEAVE marks where its subtree ends.
  private readonly stackElements: number[] = [];
  private readonly stackContexts: WalkContext[] = [];
  private readonly stackViaRef: boolean[] = [];
  private readonly stackIds: Array<string | undefined> = [];

  constructor(private readonly input: WalkInput) {
    const tree = (this.tree = input.doc.tree);
    // One reader of facts for both: what a RunList says (noteRunList) is read with the FileSpecs under it.
    const facts = new FileSpecFactsReader(tree);
    this.links = new RRefFollower(tree, input.index, input.doc);
    this.attributes = new AttributeReader(tree, input.references, input.vocabulary, input.documentBase, facts);
    this.containers = new ContainerBases(tree, this.links, input.index, input.paths, input.references, facts);
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
    const links = this.links;
    if (links.reachedCount === index.reportedAtUseCount) return;
    const stranded = index.reportedAtUseElements().filter((e) => links.reachedAtUse[e] === 0).sort((a, b) => tree.start(a) - tree.start(b));
    for (const e of stranded) {
      if (links.reachedAtUse[e] !== 0) continue;
      this.push(e, withFamily(rootContext, familyAt(tree, e), true), true, index.idOf(e));
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
        this.links.leaveChain(id!);
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
        this.links.enterChain(id);
        this.push(LEAVE, outer, false, id);
      }
      const entered = this.enter(e, outer, viaRef);
      if (entered === undefined) continue;
      const inner = this.attributes.read(e, entered);
      if (queue.waitsOn(e)) this.push(LEFT - e, outer, false);
      const first = tree.firstChild(e);
      if (first !== NONE) this.push(first, inner, false);
    }
  }

  private push(element: number, ctx: WalkContext, viaRef: boolean, id?: string): void {
    this.stackElements.push(element);
    this.stackContexts.push(ctx);
    this.stackViaRef.push(viaRef);
    this.stackIds.push(id);
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
    if (viaRef) this.links.reach(e);
    const parent = tree.parent(e);
    // A FileSpec's Container is read with the FileSpec it holds (ContainerBases), once per use.
    if (local === 'Container' && parent !== NONE && tree.local(parent) === 'FileSpec') return undefined;

    const family = FAMILY_ROOTS.get(local);
    if (family !== undefined && family !== ctx.family) ctx = withFamily(ctx, family);
    else if (viaRef) ctx = withFamily(ctx, familyAt(tree, e));

    if (isRefElement(local)) {
      const rRefAttr = tree.attribute(e, 'rRef');
      if (rRefAttr !== undefined) {
        for (const p of rRefAttr.problems) this.links.reportOnce(p.code, p.offset, p.args);
        noteReportedInValue(this.input.doc, rRefAttr.problems);
        const target = this.links.follow(rRefAttr);
        if (target !== NONE) {
          const again = ctx.again || !this.input.index.namedOnce(rRefAttr.value);
          this.push(target, withVia(ctx, ctx.via ?? this.input.paths.pathOf(e), again), true, rRefAttr.value);
        }
      }
    }

    if (local === 'FileSpec') {
      const container = tree.findChild(e, (c) => tree.local(c) === 'Container');
      if (container !== NONE) ctx = withFileBase(ctx, this.containers.baseOf(container, ctx, 0), true);
    }
    return ctx;
  }
}
