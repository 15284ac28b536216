// Step 2 of validateTicket: the index of resources, read once before the walk. Anything with an ID can be a
// resource an rRef names (resources in a ResourcePool, in a JMF ResourceInfo or ResourceCmdParams, nested in
// another resource, Test and Macro pools of device capabilities) except process nodes, messages and audits.
import { NONE, type ElementTree } from './xml/index.js';
import { isRefElement, NOT_RESOURCES } from './vocabulary.js';

/** A mark of ResourceIndex.marks: the element is a resource (its ID is read from its start tag when asked for). */
const RESOURCE = 1;
/** Marks: one rRef names the resource (with ONE_USE: more than one). */
const ONE_USE = 2;
const MORE_USES = 4;

export class ResourceIndex {
  /** The first resource with each ID. */
  private readonly resources = new Map<string, number>();
  /** The first element with each ID that is not a resource (a node, a message, an audit). */
  private readonly notResources = new Map<string, number>();
  /**
   * Per element, RESOURCE and how many rRefs name it (ONE_USE, MORE_USES): one byte each, where maps of the IDs
   * and the uses held a ticket of 100,000 rRef'd resources in about 14 MB.
   */
  private readonly marks: Uint8Array;
  /** How many resources some rRef names (reportedAtUse). */
  readonly reportedAtUseCount: number = 0;

  constructor(private readonly tree: ElementTree) {
    this.marks = new Uint8Array(tree.size);
    const named: string[] = [];
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
          this.marks[e] = RESOURCE;
          if (!this.resources.has(id)) this.resources.set(id, e);
        }
      }
      if (isRefElement(local)) {
        const rRef = tree.attribute(e, 'rRef')?.value;
        if (rRef !== undefined) named.push(rRef);
      }
      const next = tree.nextSibling(e);
      if (next !== NONE) stack.push(next);
      const first = tree.firstChild(e);
      if (first !== NONE) stack.push(first);
    }
    for (const id of named) {
      const target = this.resources.get(id);
      if (target === undefined) continue;
      if ((this.marks[target]! & ONE_USE) === 0) this.reportedAtUseCount++;
      this.marks[target]! |= (this.marks[target]! & ONE_USE) !== 0 ? MORE_USES : ONE_USE;
    }
  }

  /** Whether some rRef names this resource: where it stands it is skipped (reported at each use instead). */
  reportedAtUse(e: number): boolean {
    return (this.marks[e]! & ONE_USE) !== 0;
  }

  /** The resources some rRef names, in document order. */
  reportedAtUseElements(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.marks.length; e++) if ((this.marks[e]! & ONE_USE) !== 0) out.push(e);
    return out;
  }

  /** Whether exactly one rRef names the resource with this ID (then the walk reaches it from one place only). */
  namedOnce(id: string): boolean {
    const target = this.resources.get(id);
    return target !== undefined && (this.marks[target]! & (ONE_USE | MORE_USES)) === ONE_USE;
  }

  /** The ID of a resource; undefined for an element that is not one. */
  idOf(e: number): string | undefined {
    return (this.marks[e]! & RESOURCE) !== 0 ? this.tree.attribute(e, 'ID')!.value : undefined;
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
