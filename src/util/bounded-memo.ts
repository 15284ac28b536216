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
  // Each entry keeps its own key, so that the last one looked up is held by that key, never by a caller's string.
  const seen = new Map<K, Entry<K, V>>();
  // A ticket asks for one base many times in a row: the last entry answers without hashing the key.
  let last: Entry<K, V> | undefined;
  const miss = (key: K): Entry<K, V> => {
    const own = (typeof key === 'string' ? keyOf(ownCopy(key)) : key) as K;
    const entry: Entry<K, V> = { key: own, value: fn(own) };
    if (seen.size >= limit) seen.clear();
    seen.set(own, entry);
    return entry;
  };
  return (key: K): V => {
    if (last !== undefined && last.key === key) return last.value;
    const entry = seen.get(key);
    last = entry !== undefined && entry.value !== undefined ? entry : miss(key);
    return last.value;
  };
}

interface Entry<K, V> {
  key: K;
  value: V;
}

/**
 * The engine's one copy of `s` (a property name is always internalized): a caller that looks up with the same
 * string object each time, or with a literal, then matches the key by identity, not by comparing characters
 * (an uninternalized copy made resolveReference against one base 1.3x slower).
 */
function keyOf(s: string): string {
  return Object.keys({ [s]: 0 })[0] ?? s;
}
