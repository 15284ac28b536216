/** How many times `ch` occurs in `value` from `from` on (its first occurrence by default). */
export function occurrences(value: string, ch: string, from = value.indexOf(ch)): number {
  let n = 0;
  for (let i = from; i !== -1; i = value.indexOf(ch, i + 1)) n++;
  return n;
}
