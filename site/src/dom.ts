// A small element builder. Ticket text only ever reaches the page as text nodes, never as markup.
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}

/** The documentation of a rule: its section of rules.html (made from docs/rules.md). */
export function ruleLink(code: string, tabIndex?: number): HTMLAnchorElement {
  const a = h('a', { href: `rules.html#${code}`, class: 'code', target: '_blank', rel: 'noopener' }, code);
  if (tabIndex !== undefined) a.tabIndex = tabIndex;
  return a;
}
