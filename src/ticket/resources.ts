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
  /** How many rRefs name each ID. */
  private readonly uses = new Map<string, number>();

  constructor(tree: ElementTree) {
    const stack = [...tree.roots].reverse();
    while (stack.length > 0) {
      const e = stack.pop()!;
      const local = tree.local(e);
      const id = tree.mayHaveId(e) ? tree.attribute(e, 'ID')?.value : undefined;
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
        if (rRef !== undefined) this.uses.set(rRef, (this.uses.get(rRef) ?? 0) + 1);
      }
      const next = tree.nextSibling(e);
      if (next !== NONE) stack.push(next);
      const first = tree.firstChild(e);
      if (first !== NONE) stack.push(first);
    }
    for (const id of this.uses.keys()) {
      const target = this.resources.get(id);
      if (target !== undefined) this.reportedAtUse.add(target);
    }
  }

  /** Whether exactly one rRef names this ID (then the walk reaches that resource from one place only). */
  namedOnce(id: string): boolean {
    return this.uses.get(id) === 1;
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

/** Resource statuses by which a ticket says a resource is not ready yet (JDF 1.x 3.8.1 Status; XJDF 2.x Resource/@Status). */
const NOT_READY: ReadonlySet<string> = new Set(['Unavailable', 'Incomplete']);

/**
 * The Status by which the resource holding element `e` is declared not ready (Unavailable or Incomplete), or
 * undefined. A partition inherits its parent's Status unless it declares its own, so the nearest Status from `e`
 * up decides; the search stops at the resource itself (the first element with an ID).
 */
export function notReadyStatus(tree: ElementTree, e: number): string | undefined {
  for (let at = e; at !== NONE; at = tree.parent(at)) {
    const status = tree.attribute(at, 'Status')?.value;
    if (status !== undefined) return NOT_READY.has(status) ? status : undefined;
    if (tree.mayHaveId(at) && tree.attribute(at, 'ID') !== undefined) return undefined;
  }
  return undefined;
}
