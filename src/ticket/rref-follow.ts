// Where the walk's rRefs lead (walk.ts): the resource each names, the chain of IDs against cycles, the elements
// some use reached, and the link rules' findings, once for each place.
import type { RRefLink } from '../rules/ticket.js';
import type { RuleCode } from '../rules/codes.js';
import { PartitionSelector } from './containers.js';
import { NONE, type Attribute, type ElementTree } from './xml/index.js';
import type { TicketDocument } from './read.js';
import type { ResourceIndex } from './resources.js';
import { LINK_RULES } from './ticket-rules.js';

export class RRefFollower {
  /** "offset code" of each finding about an rRef (reportOnce). */
  private readonly reportedLinks = new Set<string>();
  /** The elements some use reached through an rRef (1), and how many: one byte per element, not a set of numbers. */
  readonly reachedAtUse: Uint8Array;
  reachedCount = 0;
  private readonly partitions: PartitionSelector;
  /**
   * The IDs of the resources on the current rRef chain, against cycles: an ID is on it from when the walk enters
   * the resource through an rRef until it leaves the resource's subtree (each test and step O(1), where a chain
   * copied at each link costs O(n^2) along a chain of n rRefs).
   */
  private readonly onChain = new Map<string, number>();

  constructor(tree: ElementTree, private readonly index: ResourceIndex, private readonly doc: TicketDocument) {
    this.reachedAtUse = new Uint8Array(tree.size);
    this.partitions = new PartitionSelector(tree);
  }

  reach(e: number): void {
    if (this.reachedAtUse[e] !== 0) return;
    this.reachedAtUse[e] = 1;
    this.reachedCount++;
  }

  enterChain(id: string): void {
    this.onChain.set(id, (this.onChain.get(id) ?? 0) + 1);
  }

  leaveChain(id: string): void {
    const n = this.onChain.get(id)! - 1;
    if (n === 0) this.onChain.delete(id);
    else this.onChain.set(id, n);
  }

  /**
   * The resource an rRef names, NONE where it names none or leads back (the link rules say so). With `selector`,
   * the ref whose Part selects a partition: that partition, NONE when none matches (a link rule says so too).
   */
  follow(rRefAttr: Attribute, selector = NONE): number {
    const { index, doc } = this;
    const id = rRefAttr.value;
    const target = index.resource(id) ?? NONE; // a number either way: RRefLink.target keeps one shape
    const selected = target !== NONE && selector !== NONE ? this.partitions.select(target, selector) : undefined;
    const onChain = this.onChain.has(id);
    const link: RRefLink = { id, offset: rRefAttr.valueStart, target, notResource: target === NONE ? index.notResource(id) : undefined, onChain };
    if (selected?.unmatched !== undefined) link.unmatchedPart = selected.unmatched;
    for (const rule of LINK_RULES) rule.checkLink(link, doc, (r) => this.reportOnce(rule.meta.code, r.offset, r.args));
    if (target === NONE || onChain) return NONE;
    return selected === undefined ? target : selected.element;
  }

  /** A finding about the file, once for each place: an rRef in a resource used from several places is one place. */
  reportOnce(code: RuleCode, offset: number, args: Record<string, string | number> = {}): void {
    const key = `${offset} ${code}`;
    if (this.reportedLinks.has(key)) return;
    this.reportedLinks.add(key);
    this.doc.findings.add(code, offset, args);
  }
}
