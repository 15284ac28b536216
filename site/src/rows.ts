// The source text as display rows: a row per line, or several for a line longer than ROW_CHARS.
import { ROW_CHARS, type RowIndex } from './protocol.js';

/** Lines end at CR, LF or CRLF, as the library counts them (src/ticket/positions.ts). */
export function rowIndex(text: string): RowIndex {
  const start: number[] = [];
  const end: number[] = [];
  const line: number[] = [];
  const firstRow: number[] = [];
  let widest = 0;
  const addLine = (from: number, to: number) => {
    firstRow.push(start.length);
    let at = from;
    do {
      const stop = Math.min(to, at + ROW_CHARS);
      start.push(at);
      end.push(stop);
      line.push(firstRow.length);
      widest = Math.max(widest, stop - at);
      at = stop;
    } while (at < to);
  };
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    addLine(from, i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    from = i + 1;
  }
  addLine(from, text.length);
  return { start: Uint32Array.from(start), end: Uint32Array.from(end), line: Uint32Array.from(line), firstRow: Uint32Array.from(firstRow), widest };
}

/** The row that holds a 1-based line and column. */
export function rowOf(rows: RowIndex, line: number, column: number): number {
  const first = rows.firstRow[Math.min(line, rows.firstRow.length) - 1] ?? 0;
  let row = first + Math.floor(Math.max(0, column - 1) / ROW_CHARS);
  while (row > first && (rows.line[row] ?? 0) !== line) row--;
  return Math.min(row, rows.start.length - 1);
}
