// The few findings or edits of one value are sorted by insertion: V8's Array.prototype.sort costs about 0.2 us a
// call in set-up alone (it copies the array out and back), more than sorting two or three items takes.

/** Sorts `items` in place by `compare`, stably as Array.prototype.sort does, and returns them. */
export function sortFew<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > 16) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    for (; j >= 0 && compare(items[j]!, item) > 0; j--) items[j + 1] = items[j]!;
    items[j + 1] = item;
  }
  return items;
}
