// The readings of the values the consumers-disagree rule resolved every way (readings.ts, disagreement), kept for
// the fix decision of the same reference a moment later (use-readings.ts): the walk checks a reference and settles
// it before it reads the next one, so both would otherwise resolve the same value against the same base twice.
// One shelf per walk (its ReferenceQueue holds it), never module-level: nothing on it outlives the walk.
import type { Reading } from '../rules/ticket-view.js';

/** One value read every way: the value, its base, whether a Directory string join was one of the readings. */
interface Shelved {
  value: string;
  base: string;
  withJoin: boolean;
  /** readings(value, base, withJoin): strict, RFC 8089 E.2.1, WHATWG and (withJoin) string join. */
  list: readonly Reading[];
}

/**
 * The last two values read every way: the rule reads a value, and where its backslashes are the cause, the value
 * with each written "/" (rules/ticket.ts, consumersDisagree). A reading is a function of the value, the base and
 * withJoin alone, so one kept for the same three is the reading worked out again.
 */
export class ReadingsShelf {
  private last: Shelved | undefined;
  private before: Shelved | undefined;

  keep(value: string, base: string, withJoin: boolean, list: readonly Reading[]): void {
    this.before = this.last;
    this.last = { value, base, withJoin, list };
  }

  /** The readings kept for these three, or undefined. */
  find(value: string, base: string, withJoin: boolean): readonly Reading[] | undefined {
    return holds(this.last, value, base, withJoin) ? this.last!.list : holds(this.before, value, base, withJoin) ? this.before!.list : undefined;
  }
}

function holds(s: Shelved | undefined, value: string, base: string, withJoin: boolean): boolean {
  return s !== undefined && s.value === value && s.base === base && s.withJoin === withJoin;
}
