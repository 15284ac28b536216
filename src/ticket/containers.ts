// Appendix 4.6: a FileSpec with a Container names a file inside that container (zip, tar, MIME package); its
// URL resolves against the URL of the folder where the consumer extracted the container, recursively. These
// find the elements involved; the walk (walk.ts) reports the container and gives its members their base.
import { NONE, type ElementTree } from './xml/index.js';

/** The partition a ref's Part selects: `element`, or NONE and the Part's keys as written when none matches. */
export interface Selection {
  element: number;
  unmatched?: string;
}

/**
 * The partition of a resource that a ref's Part selects (JDF 1.x 3.10.5); the resource itself without a Part.
 * Only the keys the resource is partitioned by (its PartIDKeys, when it gives them) select: a Part may name more.
 */
export function selectPartition(tree: ElementTree, target: number, ref: number): Selection {
  const part = tree.findChild(ref, (c) => tree.local(c) === 'Part');
  if (part === NONE) return { element: target };
  const partIdKeys = tree.attribute(target, 'PartIDKeys')?.value.trim().split(/\s+/);
  const keys = tree.rawAttributes(part).filter(([name]) => !name.startsWith('xmlns') && (partIdKeys === undefined || partIdKeys.includes(name)));
  if (keys.length === 0) return { element: target };
  const name = tree.local(target);
  // Breadth first, so the shallowest partition that matches every key (on itself or a partition above) wins.
  let level: Array<{ e: number; values: Map<string, string> }> = [{ e: target, values: new Map() }];
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { e, values } of level) {
      const own = new Map(values);
      for (const [key] of keys) {
        const v = tree.attribute(e, key)?.value;
        if (v !== undefined) own.set(key, v);
      }
      if (keys.every(([key, value]) => own.get(key) === value)) return { element: e };
      if (keys.some(([key, value]) => own.has(key) && own.get(key) !== value)) continue;
      for (let c = tree.firstChild(e); c !== NONE; c = tree.nextSibling(c)) if (tree.local(c) === name) next.push({ e: c, values: own });
    }
    level = next;
  }
  return { element: NONE, unmatched: keys.map(([key, value]) => `${key}="${value}"`).join(' ') };
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
