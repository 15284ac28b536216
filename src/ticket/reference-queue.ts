// Step 6 of validateTicketStream: each reference handed over, in the order of the walk, as soon as nothing later
// in the walk can change it. Two things can: a Directory without its trailing "/" is a warning only if some
// relative reference resolves against it (known when one does, or when the walk leaves its element), and the
// fix of a value the walk may reach again (through another rRef) is written only if it is safe for every use
// (known at the end of the walk). A reference waiting on either holds back those after it; the rest go at once.
import { parseReference } from '../uri/parse.js';
import { bySeverityThenPlace, reword } from './finding.js';
import { settleFix, settleFixes } from './fix-decision.js';
import { ReadingsShelf } from './readings-shelf.js';
import { settleReference, type Choices } from './silence.js';
import type { LocatedFinding, TicketReference } from './validate.js';

interface Waiting {
  ref: TicketReference;
  /** The reference's findings as reported (read here rather than on the reference, which comes in many shapes). */
  findings: LocatedFinding[];
  /** A Directory whose warning waits on whether a relative reference resolves against it. */
  directory: number | undefined;
  /** Whether it was reported with a fixed value. */
  fixed: boolean;
  /** A use of a value the walk may reach again, with a fix: decided at the end of the walk. */
  fix: boolean;
  /** Reported where the walk may come back (the Directory's use is known at the end only). */
  again: boolean;
}

/** What each reference goes through before it is handed over. */
export interface Settling {
  /** The decoded text and its charset, for the fix decision. */
  text: string;
  charset: string;
  /** The run's settings and the ticket's directives, when there are any. */
  choices: Choices | undefined;
  /** Each reference, settled. */
  emit: (ref: TicketReference) => void;
}

export const DIRECTORY_WARNING = 'directory-without-trailing-slash';

export class ReferenceQueue {
  private queue: Waiting[] = [];
  private head = 0;
  /** The references waiting on their Directory's use, by the element that holds it. */
  private readonly directories = new Map<number, Waiting[]>();
  /** The elements whose Directory some relative reference resolved against. */
  private readonly used = new Set<number>();
  /** The invalid-xml-char findings of the references handed over (the one walked rule looks at them: checkWalked). */
  readonly xmlCharFindings: Array<{ findings: LocatedFinding[] }> = [];
  /** The readings the check of a value worked out, for its fix decision (readings-shelf.ts). */
  readonly shelf = new ReadingsShelf();

  constructor(private readonly settling: Settling) {}

  /**
   * A reference the walk reported at `element`, with its findings; `again`, where the walk may come back; `fixed`,
   * whether it has a fixed value; `directoryWarning`, whether it is a Directory warned of its trailing "/".
   */
  add(ref: TicketReference, findings: LocatedFinding[], element: number, again: boolean, fixed: boolean, directoryWarning: boolean): void {
    const waitsOnUse = directoryWarning && !this.used.has(element);
    const waiting: Waiting = { ref, findings, directory: waitsOnUse ? element : undefined, fixed, fix: again && fixed, again };
    if (waitsOnUse) {
      const list = this.directories.get(element);
      if (list === undefined) this.directories.set(element, [waiting]);
      else list.push(waiting);
    }
    this.queue.push(waiting);
  }

  /** A relative reference resolved against the Directory of `element`: its warning stands. */
  use(element: number): void {
    if (this.used.has(element)) return;
    this.used.add(element);
    const list = this.directories.get(element);
    if (list === undefined) return;
    for (const w of list) w.directory = undefined;
    this.directories.delete(element);
  }

  /** Whether a Directory of `element` waits on its use (the walk then says when it leaves the element: left). */
  waitsOn(element: number): boolean {
    return this.directories.has(element);
  }

  /** The walk left `element`'s subtree: a Directory there that nothing used, and that the walk cannot come back to, is settled unused. */
  left(element: number): void {
    const list = this.directories.get(element);
    if (list === undefined) return;
    const later = list.filter((w) => w.again);
    for (const w of list) if (!w.again) unused(w);
    if (later.length > 0) this.directories.set(element, later);
    else this.directories.delete(element);
  }

  /** Hands over the references at the front that wait on nothing. */
  flush(): void {
    const queue = this.queue;
    while (this.head < queue.length) {
      const w = queue[this.head]!;
      if (w.directory !== undefined || w.fix) break;
      this.head++;
      this.settle(w, true);
      this.settling.emit(w.ref);
    }
    if (this.head === queue.length) {
      if (this.head !== 0) queue.length = 0; // on every element the walk pops: mostly empty already
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > queue.length) {
      this.queue = queue.slice(this.head);
      this.head = 0;
    }
  }

  /** The walk is done: every reference left is settled (a Directory nothing used, the fixes of values met again) and handed over. */
  end(): void {
    const rest = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    for (const w of rest) {
      if (w.directory !== undefined && !this.used.has(w.directory)) unused(w);
      this.settle(w, !w.fix);
    }
    settleFixes(this.settling.text, rest.filter((w) => w.fix).map((w) => w.ref), this.settling.charset);
    for (const w of rest) this.settling.emit(w.ref);
  }

  /** The walked rule's view, the run's settings and directives, and (`decide`) the fix decision of a value used once. */
  private settle(w: Waiting, decide: boolean): void {
    const ref = w.ref;
    if (w.findings.some((f) => f.code === 'invalid-xml-char')) this.xmlCharFindings.push({ findings: w.findings.slice() });
    const { choices, text, charset } = this.settling;
    if (choices === undefined) {
      if (decide && w.fixed) settleFix(text, [ref], charset, this.shelf);
      return;
    }
    settleReference(ref, choices); // may drop the fixed value
    if (decide && ref.fixed !== undefined) settleFix(text, [ref], charset, this.shelf);
  }
}

/** A Directory without its trailing "/" changes a target only where a relative reference resolves against it: info. */
function unused(w: Waiting): void {
  w.directory = undefined;
  const ref = w.ref;
  for (const f of ref.findings) {
    if (f.code !== DIRECTORY_WARNING || f.severity !== 'warning') continue;
    const path = parseReference(ref.value.trim()).path;
    reword(f, 'info', { segment: path.slice(path.lastIndexOf('/') + 1), unused: 1 });
  }
  if (ref.findings.length > 1) ref.findings.sort(bySeverityThenPlace);
}
