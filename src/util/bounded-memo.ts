// A ticket names a handful of bases, authorities and hosts thousands of times: each is worked out once. The memo is
// bounded (emptied when full), so a ticket of all-different values costs no more memory than one of a few.

/** `fn` remembered for the last `limit` or fewer distinct keys. The values must not be changed by callers. */
export function boundedMemo<K, V>(fn: (key: K) => V, limit = 256): (key: K) => V {
  const seen = new Map<K, V>();
  return (key: K): V => {
    let value = seen.get(key);
    if (value === undefined) {
      value = fn(key);
      if (seen.size >= limit) seen.clear();
      seen.set(key, value);
    }
    return value;
  };
}

/**
 * A string with the same characters that shares no storage with `s`. V8 takes a slice of a long string as a view
 * of it, so a value sliced from a ticket's text and kept after the ticket is done (a base every reference reports)
 * would keep the whole text alive; joining makes a string of its own, and a slice of that is a view of the copy.
 * Elsewhere it is just the same string.
 */
export function ownCopy(s: string): string {
  return s.length === 0 ? s : (' ' + s).slice(1);
}
