// Step 3 of validateTicket: the XPath-like path of the element that holds a reference
// (/JDF/ResourcePool/RunList[@ID='RL1']/LayoutElement/FileSpec).
import { NONE, type ElementTree } from './xml/index.js';

/**
 * Built when a reference is reported, from the element up. References come in document order, so the path
 * last built at each depth is kept for the next. Equal paths are one string, found from the parent's path and
 * the step without building it again (100,000 FileSpecs in one RunList share a single path); a step with an ID
 * (a resource's) is no other element's, and is built each time.
 */
export class ElementPaths {
  private readonly childPaths = new Map<string, Map<string, string>>();
  private readonly lastAtDepth: number[] = [];
  private readonly lastPathAtDepth: string[] = [];

  constructor(
    private readonly tree: ElementTree,
    /** The ID a step shows ([@ID='...']): resources only. */
    private readonly idOf: (e: number) => string | undefined,
  ) {}

  pathOf(e: number): string {
    let depth = 0;
    for (let x = this.tree.parent(e); x !== NONE; x = this.tree.parent(x)) depth++;
    return this.pathAt(e, depth);
  }

  private pathAt(e: number, depth: number): string {
    if (this.lastAtDepth[depth] === e) return this.lastPathAtDepth[depth]!;
    const tree = this.tree;
    const parent = tree.parent(e);
    const parentPath = parent === NONE ? '' : this.pathAt(parent, depth - 1);
    const id = this.idOf(e);
    let p: string | undefined;
    if (id !== undefined) {
      // A step with an ID is this element's alone: no other path shares it, so it is not looked up. Joined with
      // "+", the path shares its parent's characters (a template literal copied them: 8 MB per 100,000).
      p = parentPath + '/' + `${tree.local(e)}[@ID='${id.indexOf("'") === -1 ? id : id.replace(/'/g, '&apos;')}']`;
    } else {
      const step = tree.local(e);
      let steps = this.childPaths.get(parentPath);
      if (steps === undefined) this.childPaths.set(parentPath, (steps = new Map()));
      p = steps.get(step);
      if (p === undefined) steps.set(step, (p = parentPath + '/' + step));
    }
    this.lastAtDepth[depth] = e;
    this.lastPathAtDepth[depth] = p;
    return p;
  }
}
