// The references the views config maps, with or without findings: what validate --references prints under
// each of them ("mapped by view ..., storage ..., entry ... -> path"). Long lists are drawn a page at a time.
import { byId, h, plural } from './dom.js';
import type { PageReference } from './protocol.js';

const PAGE = 200;

let shown: PageReference[] = [];
let drawn = 0;

function item(r: PageReference): HTMLLIElement {
  return h(
    'li',
    { 'data-line': r.line, 'data-column': r.column, 'data-mapped-by': JSON.stringify(r.mappedBy) },
    h('p', {}, h('span', { class: 'where' }, `${r.line}:${r.column} `), h('code', {}, `${r.element}/@${r.attribute}`), ' = ', h('code', {}, JSON.stringify(r.value))),
    h('p', {}, '\u2192 ', h('code', {}, r.resolved)),
    h('p', { class: 'text' }, r.text),
  );
}

function drawMore(): void {
  const upto = Math.min(shown.length, drawn + PAGE);
  byId('mapped').append(...shown.slice(drawn, upto).map(item));
  drawn = upto;
  const more = byId('mapped-more');
  const left = shown.length - drawn;
  more.hidden = left === 0;
  more.textContent = `Show ${Math.min(PAGE, left)} more (${plural(left, 'mapped reference')} not shown)`;
}

/** Shows the mapped references of a ticket; `configured`: a config is loaded (else the section is hidden). */
export function showMapped(references: PageReference[], configured: boolean): void {
  shown = references;
  drawn = 0;
  byId('mapped-box').hidden = !configured;
  byId('mapped-title').textContent = `Mapped by the views config (${references.length.toLocaleString('en')})`;
  byId('mapped').replaceChildren(...(references.length === 0 ? [h('li', {}, 'No reference falls under a storage row of the config.')] : []));
  drawMore();
}

byId('mapped-more').addEventListener('click', drawMore);
