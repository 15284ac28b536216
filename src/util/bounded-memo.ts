// A ticket names a handful of bases, authorities and hosts thousands of times: each is worked out once. The memo is
// bounded (emptied when full), so a ticket of all-different values costs no more memory than one of a few.
import { ownCopy } from './own-copy.js';

/**
 * `fn` remembered for the last `limit` or fewer distinct keys. The values must not be changed by callers. A string
 * key is copied before it is worked out and kept (ownCopy), so nothing remembered holds the text it was sliced
 * from (a Directory's value would keep a whole ticket's text alive after validateTicket returns). The copy is
 * made on the miss path only, in a function of its own, so the look-up stays small enough to inline.
 */
export function boundedMemo<K, V>(fn: (key: K) => V, limit = 256): (key: K) => V {
  const seen = new Map<K, V>();
  const miss = (key: K): V => {
    const own = (typeof key === 'string' ? keyOf(ownCopy(key)) : key) as K;
    const value = fn(own);
    if (seen.size >= limit) seen.clear();
    seen.set(own, value);
    return value;
  };
  return (key: K): V => seen.get(key) ?? miss(key);
}

/**
 * The engine's one copy of `s` (a property name is always internalized): a caller that looks up with the same
 * string object each time, or with a literal, then matches the key by identity, not by comparing characters
 * (an uninternalized copy made resolveReference against one base 1.3x slower).
 */
function keyOf(s: string): string {
  return Object.keys({ [s]: 0 })[0] ?? s;
}
