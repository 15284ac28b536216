/** Line and column (both 1-based; the column counts UTF-16 code units) of character offsets in a text. CR, LF and CRLF all end a line. */
export class LineIndex {
  /** Where each line starts: a typed array once the text is read (a number array of 100,000 lines held 1 MB). */
  private starts: Int32Array | number[] = [0];
  /** The line (0-based) of the last offset asked for: references come in the order of the text. */
  private last = 0;

  constructor(text: string) {
    const starts = this.starts as number[];
    // From line end to line end by indexOf, with or without CR: a loop over every character of a CRLF ticket took
    // most of this constructor's time in a fresh process, before it was optimised.
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    while (cr !== -1) {
      if (lf !== -1 && lf < cr) {
        starts.push(lf + 1);
        lf = text.indexOf('\n', lf + 1);
      } else {
        const end = lf === cr + 1 ? lf : cr; // CRLF is one line end
        starts.push(end + 1);
        cr = text.indexOf('\r', end + 1);
        if (end === lf) lf = text.indexOf('\n', lf + 1);
      }
    }
    for (; lf !== -1; lf = text.indexOf('\n', lf + 1)) starts.push(lf + 1);
    this.starts = Int32Array.from(starts);
  }

  position(offset: number): { line: number; column: number } {
    const starts = this.starts;
    const last = this.last;
    if (starts[last]! <= offset && (last + 1 === starts.length || offset < starts[last + 1]!)) return { line: last + 1, column: offset - starts[last]! + 1 };
    const line = this.lineOf(offset);
    this.last = line;
    return { line: line + 1, column: offset - starts[line]! + 1 };
  }

  private lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
