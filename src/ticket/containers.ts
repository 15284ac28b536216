// Appendix 4.6: a FileSpec with a Container names a file inside that container (zip, tar, MIME package); its
// URL resolves against the URL of the folder where the consumer extracted the container, recursively. These
// find the elements involved; the walk (container-base.ts) reports the container and gives its members their base.
import { NONE, type ElementTree } from './xml/index.js';

/** The partition a ref's Part selects: `element`, or NONE and the Part's keys as written when none matches. */
export interface Selection {
  element: number;
  unmatched?: string;
}

/**
 * The partition of a resource that a ref's Part selects (JDF 1.x 3.10.5); the resource itself without a Part.
 * Only the keys the resource is partitioned by (its PartIDKeys, when it gives them) select: a Part may name more.
 * Each resource's partitions are indexed once per set of keys asked for, so n refs choosing among n partitions
 * cost O(n), not a search of every partition at each use.
 */
export class PartitionSelector {
  /** "target keys..." to the first partition, breadth first, for each combination of the keys' values. */
  private readonly indexes = new Map<string, Map<string, number>>();

  constructor(private readonly tree: ElementTree) {}

  select(target: number, ref: number): Selection {
    const tree = this.tree;
    const part = tree.findChild(ref, (c) => tree.local(c) === 'Part');
    if (part === NONE) return { element: target };
    const partIdKeys = tree.attribute(target, 'PartIDKeys')?.value.trim().split(/\s+/);
    const keys = tree.rawAttributes(part).filter(([name]) => !name.startsWith('xmlns') && (partIdKeys === undefined || partIdKeys.includes(name)));
    if (keys.length === 0) return { element: target };
    const names = keys.map(([key]) => key);
    const element = this.indexOf(target, names).get(keys.map(([, value]) => value).join('\0'));
    return element !== undefined ? { element } : { element: NONE, unmatched: keys.map(([key, value]) => `${key}="${value}"`).join(' ') };
  }

  private indexOf(target: number, names: readonly string[]): Map<string, number> {
    const id = `${target}\0${names.join('\0')}`;
    let index = this.indexes.get(id);
    if (index === undefined) this.indexes.set(id, (index = indexPartitions(this.tree, target, names)));
    return index;
  }
}

/**
 * Breadth first from the resource, so the shallowest partition that has every key (on itself or a partition
 * above) is the one for its values. A partition that sets a key to another value than the partition above it
 * gives is where a search for the values below it would stop: nothing below it is indexed as a match.
 */
function indexPartitions(tree: ElementTree, target: number, names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  const name = tree.local(target);
  let level: Array<{ e: number; values: ReadonlyArray<string | undefined> }> = [{ e: target, values: names.map(() => undefined) }];
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { e, values } of level) {
      const own = names.map((key, k) => tree.attribute(e, key)?.value ?? values[k]);
      if (own.some((v, k) => values[k] !== undefined && v !== values[k])) continue;
      if (own.every((v) => v !== undefined)) {
        const key = own.join('\0');
        if (!index.has(key)) index.set(key, e);
      }
      for (let c = tree.firstChild(e); c !== NONE; c = tree.nextSibling(c)) if (tree.local(c) === name) next.push({ e: c, values: own });
    }
    level = next;
  }
  return index;
}

/** The Container that applies to a FileSpec: its own, or that of the partition above it that has one. */
export function containerOf(tree: ElementTree, spec: number): number {
  for (let x = spec; x !== NONE && tree.local(x) === 'FileSpec'; x = tree.parent(x)) {
    const c = tree.findChild(x, (k) => tree.local(k) === 'Container');
    if (c !== NONE) return c;
  }
  return NONE;
}

/** The element whose URL a FileSpec (or partition) names: itself, the partition above that sets it, or the first below. */
export function urlHolder(tree: ElementTree, spec: number): number {
  for (let x = spec; x !== NONE && tree.local(x) === 'FileSpec'; x = tree.parent(x)) if (tree.attribute(x, 'URL') !== undefined) return x;
  const stack = [spec];
  while (stack.length > 0) {
    const e = stack.pop()!;
    for (let c = tree.firstChild(e); c !== NONE; c = tree.nextSibling(c)) {
      if (tree.local(c) !== 'FileSpec') continue;
      if (tree.attribute(c, 'URL') !== undefined) return c;
      stack.push(c);
    }
  }
  return NONE;
}
