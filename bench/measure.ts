// Timing helpers: warm-up, several rounds, the median; contenders of one section run interleaved per round so
// that drift (JIT, GC, the other core) falls on all of them alike.

export interface Contender {
  name: string;
  run: () => unknown;
}

export function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Median milliseconds of each contender over `rounds` interleaved rounds, after at least `warmup` rounds and
 * at least `warmupMs` of warm-up: small inputs need many runs before the JIT has settled.
 */
export function race(contenders: Contender[], rounds: number, warmup = 2, warmupMs = 500): Map<string, number> {
  const warmStart = performance.now();
  for (let w = 0; w < warmup || performance.now() - warmStart < warmupMs; w++) for (const c of contenders) c.run();
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    // Rotate the order each round so no contender always runs right after another one's garbage.
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(r + k) % contenders.length]!;
      const t0 = performance.now();
      c.run();
      times.get(c.name)!.push(performance.now() - t0);
    }
  }
  return new Map([...times].map(([name, ts]) => [name, medianOf(ts)]));
}

export interface Row {
  section: string;
  name: string;
  value: number;
  unit: string;
  /** Ratio against the section's reference contender, when there is one. */
  ratio?: number;
  target?: string;
  pass?: boolean;
  note?: string;
}

export function formatTable(rows: Row[]): string {
  const head = ['section', 'measure', 'value', 'ratio', 'target', 'verdict'];
  const body = rows.map((r) => [
    r.section,
    r.name,
    `${r.value >= 100 ? r.value.toFixed(0) : r.value >= 1 ? r.value.toFixed(2) : r.value.toPrecision(3)} ${r.unit}`,
    r.ratio !== undefined ? `${r.ratio.toFixed(2)}x` : '',
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
