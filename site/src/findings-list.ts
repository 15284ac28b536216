// The findings beside the source, grouped by severity. One item is in the tab order at a time; ↑/↓, Home and
// End move between items, and the focused item is shown in the source. Long lists are drawn a page at a time.
import { h, plural, ruleLink } from './dom.js';
import type { PageFinding } from './protocol.js';

const PAGE = 200;
const GROUPS = [
  { severity: 'error', title: 'Errors', word: 'error' },
  { severity: 'warning', title: 'Warnings', word: 'warning' },
  { severity: 'info', title: 'Info', word: 'info' },
] as const;

interface Group {
  list: HTMLUListElement;
  order: number[];
  drawn: number;
  more: HTMLButtonElement;
}

export class FindingsList {
  onSelect: (finding: number) => void = () => undefined;
  private findings: PageFinding[] = [];
  private groups = new Map<string, Group>();
  private items = new Map<number, HTMLLIElement>();
  private current = -1;

  constructor(private readonly root: HTMLElement) {
    root.addEventListener('keydown', (event) => this.key(event));
    root.addEventListener('click', (event) => {
      const target = event.target as HTMLElement;
      if (target.closest('a, button')) return;
      const item = target.closest<HTMLLIElement>('li.finding');
      if (item) this.focus(Number(item.dataset.i));
    });
    root.addEventListener('focusin', (event) => {
      const item = (event.target as HTMLElement).closest<HTMLLIElement>('li.finding');
      if (item && Number(item.dataset.i) !== this.current) this.choose(Number(item.dataset.i));
    });
  }

  show(findings: PageFinding[]): void {
    this.findings = findings;
    this.groups.clear();
    this.items.clear();
    this.current = -1;
    const parts: HTMLElement[] = [];
    for (const g of GROUPS) {
      const order = findings.map((_, i) => i).filter((i) => findings[i]!.severity === g.severity);
      order.sort((a, b) => findings[a]!.line - findings[b]!.line || findings[a]!.column - findings[b]!.column);
      if (order.length === 0) continue;
      const id = `group-${g.severity}`;
      const list = h('ul', { 'aria-labelledby': id });
      const more = h('button', { type: 'button', class: 'more' });
      const group: Group = { list, order, drawn: 0, more };
      more.addEventListener('click', () => this.drawMore(group, g.word));
      this.groups.set(g.severity, group);
      parts.push(h('section', { class: `group ${g.severity}` }, h('h4', { id }, `${g.title} (${order.length.toLocaleString('en')})`), list, more));
      this.drawMore(group, g.word);
    }
    if (parts.length === 0) parts.push(h('p', { class: 'none' }, 'No findings: every reference is clean.'));
    this.root.replaceChildren(...parts);
    const first = this.firstItem();
    if (first) first.tabIndex = 0;
  }

  /** Highlights a finding in the list, drawing its page if needed, and moves the focus to it. */
  focus(index: number): void {
    const f = this.findings[index];
    if (!f) return;
    const group = this.groups.get(f.severity)!;
    const word = GROUPS.find((g) => g.severity === f.severity)!.word;
    while (!this.items.has(index) && group.drawn < group.order.length) this.drawMore(group, word);
    this.choose(index);
    this.items.get(index)?.focus({ preventScroll: true });
  }

  private choose(index: number): void {
    const before = this.items.get(this.current);
    if (before) {
      before.removeAttribute('aria-current');
      before.tabIndex = -1;
      for (const a of before.querySelectorAll('a')) a.tabIndex = -1;
    }
    const firstItem = this.firstItem();
    if (firstItem && firstItem !== this.items.get(index)) firstItem.tabIndex = -1;
    this.current = index;
    const item = this.items.get(index);
    if (!item) return;
    item.setAttribute('aria-current', 'true');
    item.tabIndex = 0;
    for (const a of item.querySelectorAll('a')) a.tabIndex = 0;
    this.reveal(item);
    this.onSelect(index);
  }

  /** Scrolls the list (only the list, not the page) so that the item is in view. */
  private reveal(item: HTMLElement): void {
    const box = this.root.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    const header = item.closest('section')?.querySelector('h4')?.offsetHeight ?? 0;
    if (at.top < box.top + header) this.root.scrollTop -= box.top + header - at.top;
    else if (at.bottom > box.bottom) this.root.scrollTop += Math.min(at.bottom - box.bottom, at.top - box.top - header);
  }

  private key(event: KeyboardEvent): void {
    const item = (event.target as HTMLElement).closest<HTMLLIElement>('li.finding');
    if (!item || (event.target as HTMLElement).closest('a')) return;
    const all = [...this.root.querySelectorAll<HTMLLIElement>('li.finding')];
    const at = all.indexOf(item);
    let next = -1;
    if (event.key === 'ArrowDown') next = Math.min(all.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = all.length - 1;
    else if (event.key === 'Enter' || event.key === ' ') next = at;
    else return;
    event.preventDefault();
    const target = all[next]!;
    if (next === at) this.onSelect(Number(target.dataset.i));
    else this.focus(Number(target.dataset.i));
  }

  private firstItem(): HTMLLIElement | null {
    return this.root.querySelector('li.finding');
  }

  private drawMore(group: Group, word: string): void {
    const upto = Math.min(group.order.length, group.drawn + PAGE);
    const items: HTMLLIElement[] = [];
    for (let k = group.drawn; k < upto; k++) items.push(this.item(group.order[k]!));
    group.list.append(...items);
    group.drawn = upto;
    const left = group.order.length - upto;
    group.more.hidden = left === 0;
    group.more.textContent = `Show ${Math.min(PAGE, left)} more (${plural(left, word === 'info' ? 'info finding' : word)} not shown)`;
  }

  private item(i: number): HTMLLIElement {
    const f = this.findings[i]!;
    const li = h(
      'li',
      { class: `finding ${f.severity}`, tabindex: -1, 'data-i': i, 'data-code': f.code, 'data-severity': f.severity, 'data-line': f.line, 'data-column': f.column },
      h('p', {}, h('span', { class: 'where' }, `${f.line}:${f.column}`), h('span', { class: `sev ${f.severity}` }, f.severity)),
      h('p', { class: 'msg' }, f.message),
      h('p', { class: 'meta' }, ruleLink(f.code, -1), f.spec ? ` \u00b7 ${f.spec}` : ''),
      f.element !== undefined ? h('p', { class: 'ref' }, h('code', {}, `${f.element}/@${f.attribute}`), ' = ', h('code', {}, JSON.stringify(f.value))) : null,
      f.fix !== undefined ? h('p', { class: 'fix' }, 'fix: ', h('code', {}, f.fix)) : null,
      ...(f.suggestions ?? []).map((s) => h('p', { class: 'suggestion' }, `suggestion (${s.desc}): `, h('code', {}, s.fix))),
      f.mapping !== undefined ? h('p', { class: 'mapped', 'data-mapped-by': JSON.stringify(f.mapping.mappedBy) }, f.mapping.text) : null,
    );
    this.items.set(i, li);
    return li;
  }
}
