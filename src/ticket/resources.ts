// Step 2 of validateTicket: the index of resources, read once before the walk. Anything with an ID can be a
// resource an rRef names (resources in a ResourcePool, in a JMF ResourceInfo or ResourceCmdParams, nested in
// another resource, Test and Macro pools of device capabilities) except process nodes, messages and audits.
import { NONE, type ElementTree } from './xml/index.js';
import { isRefElement, NOT_RESOURCES } from './vocabulary.js';

export class ResourceIndex {
  /** The ID of each resource (elements that are not resources are not here: their paths show no ID). */
  private readonly ids = new Map<number, string>();
  /** The first resource with each ID. */
  private readonly resources = new Map<string, number>();
  /** The first element with each ID that is not a resource (a node, a message, an audit). */
  private readonly notResources = new Map<string, number>();
  /** The resources some rRef names: where they stand, they are skipped (reported at each use instead). */
  readonly reportedAtUse = new Set<number>();

  constructor(tree: ElementTree) {
    const referenced = new Set<string>();
    const stack = [...tree.roots].reverse();
    while (stack.length > 0) {
      const e = stack.pop()!;
      const local = tree.local(e);
      const id = tree.attribute(e, 'ID')?.value;
      if (id !== undefined) {
        const parent = tree.parent(e);
        if (NOT_RESOURCES.has(local) || (parent !== NONE && tree.local(parent) === 'AuditPool')) {
          if (!this.notResources.has(id)) this.notResources.set(id, e);
        } else {
          this.ids.set(e, id);
          if (!this.resources.has(id)) this.resources.set(id, e);
        }
      }
      if (isRefElement(local)) {
        const rRef = tree.attribute(e, 'rRef')?.value;
        if (rRef !== undefined) referenced.add(rRef);
      }
      const next = tree.nextSibling(e);
      if (next !== NONE) stack.push(next);
      const first = tree.firstChild(e);
      if (first !== NONE) stack.push(first);
    }
    for (const id of referenced) {
      const target = this.resources.get(id);
      if (target !== undefined) this.reportedAtUse.add(target);
    }
  }

  /** The ID of a resource; undefined for an element that is not one. */
  idOf(e: number): string | undefined {
    return this.ids.get(e);
  }

  /** The resource with this ID, or undefined. */
  resource(id: string): number | undefined {
    return this.resources.get(id);
  }

  /** The element with this ID that is not a resource, or undefined. */
  notResource(id: string): number | undefined {
    return this.notResources.get(id);
  }
}
