// What applies where the walk stands (walk.ts): the base of a FileSpec's URL, the rRef it came through, whose
// vocabulary applies; and the contexts made from one another as the walk goes down and along rRefs.
import { parseReference } from '../uri/parse.js';
import { resolveReference } from '../uri/resolve.js';
import { NONE, type ElementTree } from './xml/index.js';
import type { Base } from './reference.js';
import { FAMILY_ROOTS, type Family } from './vocabulary.js';

/** What applies where the walk stands: passed down to children, and along an rRef to the resource it names. */
export interface WalkContext {
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

// `ctx` with some of its fields changed, every field written out: one shape for every context (object spread that
// adds a field took most of the time of an rRef's use), and one shape of argument (a Partial<WalkContext> of the
// changed fields came in several, and deoptimised the walk in a cold run).
export function withFamily(ctx: WalkContext, family: WalkContext['family'], again = ctx.again): WalkContext {
  return { fileBase: ctx.fileBase, via: ctx.via, again, family, inContainer: ctx.inContainer };
}

export function withVia(ctx: WalkContext, via: string, again: boolean): WalkContext {
  return { fileBase: ctx.fileBase, via, again, family: ctx.family, inContainer: ctx.inContainer };
}

/** `ctx` under a Directory, or (`inContainer`) in a container. */
export function withFileBase(ctx: WalkContext, fileBase: Base, inContainer = ctx.inContainer): WalkContext {
  return { fileBase, via: ctx.via, again: ctx.again, family: ctx.family, inContainer };
}

/** The base a Directory gives its descendants: itself when absolute, resolved against the document when not. */
export function directoryBase(value: string, outer: Base, from: number): Base {
  const trimmed = value.trim();
  if (parseReference(trimmed).scheme !== undefined) return { uri: trimmed, source: 'directory', from };
  return outer.uri !== null ? { uri: resolveReference(trimmed, outer.uri), source: 'directory', from } : { uri: null, source: 'none' };
}

/** The family whose vocabulary applies to an element reached by an rRef: that of its nearest root ancestor. */
export function familyAt(tree: ElementTree, e: number): Family | 'PrintTalk' {
  for (let x = e; x !== NONE; x = tree.parent(x)) {
    const f = FAMILY_ROOTS.get(tree.local(x));
    if (f !== undefined) return f;
  }
  return tree.roots.length > 0 && tree.local(tree.roots[0]!) === 'PrintTalk' ? 'PrintTalk' : 'JDF';
}
