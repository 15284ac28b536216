// "Check one URL": what `jdf-filespec check` prints, as a page: components, resolution, readings, findings.
import { h, plural, ruleLink } from './dom.js';
import type { Components, UrlChecked } from './protocol.js';

const COMPONENT_NAMES: Array<keyof Components> = ['scheme', 'authority', 'userinfo', 'host', 'port', 'path', 'query', 'fragment'];

function shown(value: string | undefined): Node {
  if (value === undefined) return h('span', { class: 'help' }, 'not defined');
  if (value === '') return h('span', { class: 'help' }, 'empty');
  return h('code', {}, value);
}

/** The value with the character at `offset` marked. */
function pointAt(value: string, offset: number | undefined): HTMLElement {
  if (offset === undefined || offset < 0 || offset > value.length) return h('code', { class: 'value' }, value);
  const ch = value.slice(offset, offset + 1);
  return h('code', { class: 'value' }, value.slice(0, offset), h('mark', {}, ch === '' ? '\u2038' : ch), value.slice(offset + 1));
}

export function renderUrlResult(m: UrlChecked): HTMLElement[] {
  const r = m.result;
  const facts = [r.kind, r.scheme && `scheme ${r.scheme}`, r.host !== undefined && `host ${JSON.stringify(r.host)}`, `local ${String(r.local)}`].filter(Boolean).join(', ');
  const out: HTMLElement[] = [h('p', {}, h('code', {}, JSON.stringify(r.value)), ': ', facts)];
  // userinfo, host and port only when there is an authority to hold them.
  const rows = COMPONENT_NAMES.filter((n) => !['userinfo', 'host', 'port'].includes(n) || m.components.authority !== undefined)
    .map((n) => h('tr', {}, h('th', { scope: 'row' }, n), h('td', {}, shown(m.components[n]))));
  out.push(h('table', { class: 'components' }, h('caption', { class: 'visually-hidden' }, 'Components (RFC 3986 section 3)'), h('tbody', {}, ...rows)));
  out.push(h('p', {}, 'resolved: ', r.resolved === null ? h('span', { class: 'help' }, 'not resolved (a relative reference needs a base)') : h('code', { class: 'resolved' }, r.resolved)));
  if (m.readings.length > 0) {
    const strict = m.readings[0]!.href;
    out.push(
      h('p', {}, m.disagree ? h('strong', { class: 'differs' }, 'Consumers would open different files:') : 'Every consumer opens the same file:'),
      h(
        'table',
        { class: 'readings' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'consumer'), h('th', { scope: 'col' }, 'reads it as'))),
        h('tbody', {}, ...m.readings.map((x) => h('tr', {}, h('th', { scope: 'row' }, x.consumer), h('td', {}, x.href === null ? 'cannot resolve' : h('code', {}, x.href), x.href !== strict ? h('span', { class: 'differs' }, ' (differs)') : '')))),
      ),
    );
  }
  if (r.findings.length === 0) out.push(h('p', {}, 'No findings.'));
  else {
    out.push(
      h(
        'ul',
        { class: 'url-findings' },
        ...r.findings.map((f) =>
          h(
            'li',
            { 'data-code': f.code, 'data-severity': f.severity, 'data-offset': f.offset ?? '' },
            h('span', { class: `sev ${f.severity}` }, f.severity), ' ', f.offset !== undefined ? `at ${f.offset} ` : '', pointAt(r.value, f.offset),
            h('br'), f.message, ' ', ruleLink(f.code), f.spec ? ` \u00b7 ${f.spec}` : '',
            f.fix !== undefined ? h('span', { class: 'fix' }, h('br'), 'fix: ', h('code', {}, f.fix)) : '',
            ...(f.suggestions ?? []).map((s) => h('span', { class: 'suggestion' }, h('br'), `suggestion (${s.desc}): `, h('code', {}, s.fix))),
          ),
        ),
      ),
    );
  }
  if (r.fixed !== undefined) out.push(h('p', { class: 'fix' }, 'all fixes: ', h('code', { class: 'all-fixes' }, r.fixed)));
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of r.findings) counts[f.severity]++;
  out.push(h('p', { class: 'help' }, `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`));
  return out;
}
