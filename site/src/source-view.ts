// The ticket's source with line numbers, drawn only where it is visible: a 100,000-FileSpec ticket is a few
// dozen rows in the page at any time. Findings are marked at their line and column.
import { h } from './dom.js';
import { ROW_CHARS, type PageFinding, type RowIndex } from './protocol.js';
import { rowOf } from './rows.js';

/** Height of a row in CSS pixels (--row in site.css). */
const ROW_PX = 20;
/** Browsers cap an element's height (Chromium near 33.5 M px); taller sources scroll at a scale. */
const MAX_PX = 15_000_000;
const OVERSCAN = 20;
const RANK = { error: 0, warning: 1, info: 2 } as const;

/** A finding's marked range on one line, in 0-based columns [from, to). */
interface Span {
  finding: number;
  from: number;
  to: number;
}

export class SourceView {
  onMarkClick: (finding: number) => void = () => undefined;
  private text = '';
  private rows: RowIndex | null = null;
  private findings: PageFinding[] = [];
  private byRow = new Map<number, Span[]>();
  private current = -1;
  private scale = 1;
  private readonly spacer = h('div', { class: 'spacer' });
  private readonly block = h('div', { class: 'rows' });
  private drawn = '';
  private pending = false;

  constructor(private readonly root: HTMLElement) {
    this.spacer.append(this.block);
    root.append(this.spacer);
    root.addEventListener('scroll', () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(root);
    root.addEventListener('click', (event) => {
      const mark = (event.target as HTMLElement).closest('mark');
      if (mark?.dataset.f) this.onMarkClick(Number(mark.dataset.f.split(' ')[0]));
    });
  }

  show(text: string, rows: RowIndex, findings: PageFinding[]): void {
    this.text = text;
    this.rows = rows;
    this.findings = findings;
    this.current = -1;
    this.byRow = spansByRow(rows, findings);
    const total = rows.start.length * ROW_PX;
    this.scale = Math.max(1, total / MAX_PX);
    this.spacer.style.height = `${Math.ceil(total / this.scale)}px`;
    this.spacer.style.width = `calc(${rows.widest + 10}ch)`;
    this.root.scrollTop = 0;
    this.root.scrollLeft = 0;
    this.draw(true);
  }

  /** Scrolls to a finding and highlights its row and marks. */
  select(index: number): void {
    if (!this.rows) return;
    this.current = index;
    const f = this.findings[index]!;
    const row = rowOf(this.rows, f.line, f.column);
    const top = (row * ROW_PX - this.root.clientHeight / 2 + ROW_PX / 2) / this.scale;
    this.root.scrollTop = Math.max(0, top);
    const columnPx = ((f.column - 1) % ROW_CHARS) * 7.8;
    if (columnPx < this.root.scrollLeft || columnPx > this.root.scrollLeft + this.root.clientWidth - 120) this.root.scrollLeft = Math.max(0, columnPx - 200);
    this.draw(true);
  }

  /** The row that shows the highlighted finding, for tests and screen readers. */
  currentRow(): HTMLElement | null {
    return this.block.querySelector('.row.current');
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw(false);
    });
  }

  private draw(force: boolean): void {
    const rows = this.rows;
    if (!rows) return;
    const count = rows.start.length;
    const virtualTop = this.root.scrollTop * this.scale;
    const first = Math.max(0, Math.floor(virtualTop / ROW_PX) - OVERSCAN);
    const last = Math.min(count - 1, Math.floor((virtualTop + this.root.clientHeight) / ROW_PX) + OVERSCAN);
    const key = `${first}:${last}`;
    if (!force && key === this.drawn) return;
    this.drawn = key;
    // The block sits where its first row belongs in the (possibly scaled) scroll space.
    const top = this.root.scrollTop - (virtualTop - first * ROW_PX);
    this.block.style.transform = `translateY(${Math.max(0, top)}px)`;
    const out: HTMLElement[] = [];
    for (let r = first; r <= last; r++) out.push(this.row(rows, r));
    this.block.replaceChildren(...out);
  }

  private row(rows: RowIndex, r: number): HTMLElement {
    const line = rows.line[r]!;
    const isFirst = rows.firstRow[line - 1] === r;
    const spans = this.byRow.get(r) ?? [];
    const el = h('div', { class: 'row', 'data-line': line }, h('span', { class: 'ln', 'aria-hidden': isFirst ? undefined : 'true' }, isFirst ? String(line) : '\u21aa'));
    let worst: PageFinding['severity'] | null = null;
    for (const s of spans) {
      const sev = this.findings[s.finding]!.severity;
      if (worst === null || RANK[sev] < RANK[worst]) worst = sev;
      if (s.finding === this.current) el.classList.add('current');
    }
    if (worst) el.classList.add(`has-${worst}`);
    el.append(this.code(rows, r, spans));
    return el;
  }

  /** The row's text, cut where marks start and end; each piece of text is a text node. */
  private code(rows: RowIndex, r: number, spans: Span[]): HTMLElement {
    const start = rows.start[r]!;
    const length = rows.end[r]! - start;
    const lineStart = rows.start[rows.firstRow[rows.line[r]! - 1]!]!;
    const shift = start - lineStart;
    const local = spans.map((s) => ({ finding: s.finding, from: Math.max(0, s.from - shift), to: Math.min(length, s.to - shift) }));
    const cuts = new Set([0, length]);
    for (const s of local) cuts.add(s.from).add(s.to);
    const points = [...cuts].filter((c) => c >= 0 && c <= length).sort((a, b) => a - b);
    const code = h('span', { class: 'code' });
    for (let k = 0; k < points.length; k++) {
      const x = points[k]!;
      for (const s of local) if (s.from === x && s.to === x) code.append(this.mark([s.finding], '', true));
      const y = points[k + 1];
      if (y === undefined || y === x) continue;
      const piece = this.text.slice(start + x, start + y);
      const covering = local.filter((s) => s.from <= x && s.to >= y && s.to > s.from).map((s) => s.finding);
      code.append(covering.length > 0 ? this.mark(covering, piece, false) : piece);
    }
    return code;
  }

  private mark(covering: number[], text: string, empty: boolean): HTMLElement {
    covering.sort((a, b) => RANK[this.findings[a]!.severity] - RANK[this.findings[b]!.severity]);
    const sev = this.findings[covering[0]!]!.severity;
    const cls = [sev, empty ? 'empty' : '', covering.includes(this.current) ? 'current' : ''].filter(Boolean).join(' ');
    return h('mark', { class: cls, 'data-f': covering.join(' '), title: covering.map((i) => `${this.findings[i]!.code}: ${this.findings[i]!.message}`).join('\n') }, text);
  }
}

/**
 * Where each finding is marked: a reference finding from its column to the end of the value (on that line),
 * a file finding on its one character.
 */
function spansByRow(rows: RowIndex, findings: PageFinding[]): Map<number, Span[]> {
  const out = new Map<number, Span[]>();
  findings.forEach((f, i) => {
    const line = Math.min(f.line, rows.firstRow.length);
    const firstRow = rows.firstRow[line - 1]!;
    const lastRow = line < rows.firstRow.length ? rows.firstRow[line]! - 1 : rows.start.length - 1;
    const lineLength = rows.end[lastRow]! - rows.start[firstRow]!;
    const from = Math.min(f.column - 1, lineLength);
    let to: number;
    if (f.endLine === undefined) to = Math.min(from + 1, lineLength);
    else if (f.endLine === f.line) to = Math.max(from, Math.min(f.endColumn! - 1, lineLength));
    else to = lineLength;
    const a = rowOf(rows, line, from + 1);
    const b = Math.max(a, Math.min(lastRow, firstRow + Math.floor(Math.max(from, to - 1) / ROW_CHARS)));
    for (let r = a; r <= b; r++) {
      const list = out.get(r);
      if (list) list.push({ finding: i, from, to });
      else out.set(r, [{ finding: i, from, to }]);
    }
  });
  return out;
}
