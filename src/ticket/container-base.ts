// The base a FileSpec's Container gives the file inside it (JDF appendix 4.6), read once for each use of the
// FileSpec by the walk (walk.ts): the container's own FileSpec is reported, its rRef followed, its containers first.
import { containerOf, urlHolder } from './containers.js';
import type { ElementPaths } from './element-paths.js';
import type { FileSpecFactsReader } from './filespec-facts.js';
import { NO_BASE, NO_CONTAINER, type Base, type ReferenceRecorder } from './reference.js';
import type { ResourceIndex } from './resources.js';
import type { RRefFollower } from './rref-follow.js';
import { withVia, type WalkContext } from './walk-context.js';
import { NONE, type ElementTree } from './xml/index.js';

/** Containers nest no deeper than this (a zip in a tar in a gzip is three). */
const MAX_CONTAINER_DEPTH = 32;

export class ContainerBases {
  constructor(
    private readonly tree: ElementTree,
    private readonly links: RRefFollower,
    private readonly index: ResourceIndex,
    private readonly paths: ElementPaths,
    private readonly references: ReferenceRecorder,
    private readonly facts: FileSpecFactsReader,
  ) {}

  /**
   * Reports the container a Container element names (Container/FileSpec, or Container/FileSpecRef with its Part
   * selectors), once for this use, and returns the folder its members resolve against.
   */
  baseOf(container: number, ctx: WalkContext, depth: number): Base {
    if (depth > MAX_CONTAINER_DEPTH) return NO_CONTAINER;
    const tree = this.tree;
    let spec = tree.findChild(container, (c) => tree.local(c) === 'FileSpec');
    let use = ctx;
    let chained: string | undefined; // the ID a FileSpecRef puts on the chain for the containers around it
    if (spec === NONE) {
      const ref = tree.findChild(container, (c) => tree.local(c) === 'FileSpecRef');
      const rRefAttr = ref === NONE ? undefined : tree.attribute(ref, 'rRef');
      if (rRefAttr === undefined) return NO_CONTAINER;
      const target = this.index.resource(rRefAttr.value);
      if (target !== undefined) this.links.reach(target);
      spec = this.links.follow(rRefAttr, ref);
      if (spec === NONE) return NO_CONTAINER;
      use = withVia(ctx, ctx.via ?? this.paths.pathOf(ref), ctx.again);
      chained = rRefAttr.value;
    }
    const outer = containerOf(tree, spec);
    let base = use.fileBase;
    if (outer !== NONE) {
      if (chained !== undefined) this.links.enterChain(chained);
      base = this.baseOf(outer, use, depth + 1);
      if (chained !== undefined) this.links.leaveChain(chained);
    }
    const holder = urlHolder(tree, spec);
    if (holder === NONE) return NO_CONTAINER;
    // A FileSpec reached through a FileSpecRef may be reached again, through another.
    const resolved = this.references.url(holder, tree.attribute(holder, 'URL')!, 'url', base, use.via, outer !== NONE, this.facts.of(holder), use.again || chained !== undefined, false);
    if (base === NO_CONTAINER) return NO_CONTAINER;
    return resolved !== null ? { uri: resolved.replace(/\/?$/, '/'), source: 'container' } : NO_BASE;
  }
}
