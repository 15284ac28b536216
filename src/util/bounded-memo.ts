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
