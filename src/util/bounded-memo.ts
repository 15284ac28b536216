// A ticket names a handful of bases, authorities and hosts thousands of times: each is worked out once. The memo is
// bounded (emptied when full), so a ticket of all-different values costs no more memory than one of a few.

/**
 * A string with the same characters that shares no storage with `s`. V8 takes a slice of a long string as a view
 * of it, so a memo keyed by a value sliced from a ticket's text, or holding parts sliced from it, would keep the
 * whole text alive after the ticket is done; joining makes a string of its own, and a slice of that is a view of
 * the copy. Elsewhere it is just the same string.
 */
export function ownCopy(s: string): string {
  return s.length === 0 ? s : (' ' + s).slice(1);
}

/**
 * `fn` remembered for the last `limit` or fewer distinct keys. The values must not be changed by callers. A string
 * key is copied before it is worked out and kept (ownCopy), so nothing remembered holds the text it came from.
 */
export function boundedMemo<K, V>(fn: (key: K) => V, limit = 256): (key: K) => V {
  const seen = new Map<K, V>();
  return (key: K): V => {
    let value = seen.get(key);
    if (value === undefined) {
      const own = (typeof key === 'string' ? ownCopy(key) : key) as K;
      value = fn(own);
      if (seen.size >= limit) seen.clear();
      seen.set(own, value);
    }
    return value;
  };
}
