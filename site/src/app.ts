// The page: takes tickets (dropped, chosen or pasted), has the worker check them, and shows the results.
import { byId, h, plural } from './dom.js';
import { FindingsList } from './findings-list.js';
import { showMapped } from './mapped-list.js';
import type { ConfigChecked, FromWorker, PageOptions, PageViews, ToWorker, Validated, Fixed } from './protocol.js';
import { SourceView } from './source-view.js';
import { kept, totals, type Filter } from './ticket-totals.js';
import { renderUrlResult } from './url-box.js';

/** The worker's code, put here by the build: a blob worker runs from file:// as well as from any host. */
declare const WORKER_SOURCE: string;

interface Ticket {
  id: number;
  name: string;
  input: ArrayBuffer | string;
  size: number;
  result?: Validated;
  button: HTMLButtonElement;
}

const tickets: Ticket[] = [];
let selected: Ticket | null = null;
let nextId = 1;
/** Requests sent to the worker and not yet answered. */
const busy = new Map<number, string>();

const source = new SourceView(byId('source'));
const list = new FindingsList(byId('findings'));
list.onSelect = (i) => source.select(i);
source.onMarkClick = (i) => list.focus(i);

let worker = startWorker();

function startWorker(): Worker {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const w = new Worker(url);
  URL.revokeObjectURL(url);
  w.onmessage = (event: MessageEvent<FromWorker>) => received(event.data);
  // The library never throws on input; should the worker still fail, say so and start a fresh one.
  w.onerror = (event) => {
    event.preventDefault();
    restart(`The checker stopped (${event.message}); the tickets it was working on are not checked.`);
  };
  return w;
}

function send(message: ToWorker, label: string): void {
  busy.set(message.id, label);
  updateBusy(label);
  worker.postMessage(message);
}

function received(m: FromWorker): void {
  if (m.type === 'progress') {
    updateBusy(`${busy.get(m.id) ?? ''}: ${m.phase}…`);
    return;
  }
  busy.delete(m.id);
  if (m.type === 'validated') validated(m);
  else if (m.type === 'fixed') fixed(m);
  else if (m.type === 'config-checked') configChecked(m);
  else if (m.type === 'url-checked') {
    if (m.id === urlRequest) byId('url-result').replaceChildren(...renderUrlResult(m));
  }
  updateBusy();
}

function updateBusy(label?: string): void {
  const working = busy.size > 0;
  byId('progress').hidden = !working;
  byId('cancel').hidden = !working;
  document.body.dataset.busy = String(working);
  if (working) status(label ?? [...busy.values()][0]!);
}

function status(text: string): void {
  byId('status-text').textContent = text;
}

function options(): PageOptions {
  return {
    profile: byId<HTMLSelectElement>('opt-profile').value as PageOptions['profile'],
    platform: byId<HTMLSelectElement>('opt-platform').value as PageOptions['platform'],
    jdfVersion: byId<HTMLInputElement>('opt-version').value,
    base: byId<HTMLInputElement>('opt-base').value,
    drivePreserving: byId<HTMLInputElement>('opt-drive').checked,
    strictXml: byId<HTMLInputElement>('opt-strict').checked,
    ...(config ? { views: withMachine(config.views, byId<HTMLSelectElement>('opt-machine').value) } : {}),
  };
}

/** The table with the view picked as this machine's ("" for none). */
function withMachine(views: PageViews, machine: string): PageViews {
  const { machine: _config, ...table } = views.table;
  return { ...views, table: machine === '' ? table : { ...table, machine } };
}

function sizeOf(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function check(t: Ticket): void {
  const label = `Checking ${t.name} (${sizeOf(t.size)})`;
  // The label keeps its size while the ticket is checked again, so nothing moves under the pointer.
  t.button.setAttribute('aria-busy', 'true');
  if (!t.result) t.button.querySelector('.counts')!.textContent = '…';
  if (typeof t.input === 'string') send({ type: 'validate-text', id: t.id, name: t.name, text: t.input, options: options() }, label);
  else send({ type: 'validate', id: t.id, name: t.name, bytes: t.input.slice(0), options: options() }, label);
}

/** Adds a ticket and checks it; `show`: it is the one shown when its result comes. */
function add(name: string, input: ArrayBuffer | string, size: number, show = true): void {
  const id = nextId++;
  const button = h('button', { type: 'button', 'data-id': id }, h('span', { class: 'name' }, name), ' ', h('span', { class: 'counts' }));
  const t: Ticket = { id, name, input, size, button };
  button.addEventListener('click', () => select(t));
  // One ticket button is in the tab order (the one shown); the arrow keys move between them.
  button.tabIndex = selected === null && tickets.length === 0 ? 0 : -1;
  tickets.push(t);
  byId('ticket-list').append(h('li', {}, button));
  byId('tickets').hidden = false;
  if (show) select(t);
  check(t);
}

async function addFiles(files: FileList | File[]): Promise<void> {
  let first = true;
  for (const file of Array.from(files)) {
    add(file.name, await file.arrayBuffer(), file.size, first);
    first = false;
  }
}

function counts(r: Validated): { error: number; warning: number; info: number } {
  const c = { error: 0, warning: 0, info: 0 };
  for (const f of r.findings) c[f.severity]++;
  return c;
}

function validated(m: Validated): void {
  const t = tickets.find((x) => x.id === m.id);
  if (!t) return;
  t.result = m;
  const c = counts(m);
  t.button.removeAttribute('aria-busy');
  t.button.querySelector('.counts')!.textContent = `${c.error} E, ${c.warning} W, ${c.info} I`;
  t.button.title = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info`;
  showTotals();
  if (selected === t) select(t);
  // The status line follows the ticket shown: the others' results are in their buttons and the totals.
  else if (busy.size > 0) status(progressLine());
  else if (selected?.result) status(checkedLine(selected, selected.result));
}

function checkedLine(t: Ticket, r: Validated): string {
  const c = counts(r);
  return `Checked ${t.name}: ${plural(r.references, 'reference')}, ${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info.`;
}

/** The status line while other tickets than the one shown are checked: how far the page has come. */
function progressLine(): string {
  const done = tickets.filter((x) => x.result !== undefined).length;
  return `Checked ${done} of ${plural(tickets.length, 'ticket')}.`;
}

function filter(): Filter {
  return { severity: byId<HTMLSelectElement>('filter-severity').value as Filter['severity'], code: byId<HTMLSelectElement>('filter-code').value };
}

/** The totals across tickets, the rules found (for the filter), and which tickets the filter shows. */
function showTotals(): void {
  const all = totals(tickets.map((t) => t.result?.findings));
  const pending = all.pending > 0 ? ` (${all.pending} being checked)` : '';
  byId('totals').textContent = `${plural(all.checked, 'ticket')}${pending}: ${plural(all.error, 'error')}, ${plural(all.warning, 'warning')}, ${all.info} info; ${all.clean} without findings.`;
  const codeSelect = byId<HTMLSelectElement>('filter-code');
  const chosen = codeSelect.value;
  codeSelect.replaceChildren(h('option', { value: '' }, 'every rule'), ...all.codes.map(([code, n]) => h('option', { value: code }, `${code} (${n})`)));
  codeSelect.value = all.codes.some(([code]) => code === chosen) ? chosen : '';
  const f = filter();
  const filtering = f.severity !== '' || f.code !== '';
  for (const t of tickets) t.button.parentElement!.hidden = filtering && t.result !== undefined && kept(t.result.findings, f).length === 0;
}

for (const id of ['filter-severity', 'filter-code']) {
  byId(id).addEventListener('change', () => {
    showTotals();
    if (selected) select(selected);
  });
}

byId('ticket-list').addEventListener('keydown', (event) => {
  const shown = tickets.filter((t) => !t.button.parentElement!.hidden);
  const at = shown.findIndex((t) => t === selected);
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: shown.length - 1 }[event.key];
  if (to === undefined || shown.length === 0) return;
  event.preventDefault();
  const t = shown[Math.max(0, Math.min(shown.length - 1, to))]!;
  select(t);
  t.button.focus();
});

function select(t: Ticket): void {
  selected = t;
  for (const x of tickets) {
    x.button.setAttribute('aria-current', String(x === t));
    x.button.tabIndex = x === t ? 0 : -1;
  }
  const r = t.result;
  if (!r) return;
  const c = counts(r);
  const f = filter();
  const findings = kept(r.findings, f);
  const filtered = findings.length === r.findings.length ? '' : ` (${findings.length} shown by the filter)`;
  status(checkedLine(t, r));
  byId('result').hidden = false;
  byId('result-title').textContent = t.name;
  const kind = [r.root, r.jdfVersion].filter((x) => x !== undefined).join(' ');
  const facts = [kind && `${kind} ticket`, r.encoding].filter(Boolean).join(', ');
  byId('summary').textContent = `${facts}; ${plural(r.references, 'reference')}: ${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info${filtered}`;
  byId('source').setAttribute('aria-label', `Source of ${t.name}`);
  source.show(r.text, r.rows, findings);
  list.show(findings);
  showMapped(r.mapped, config !== null);
  document.body.dataset.shown = String(t.id);
}

function diffClass(line: string): string {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('-') && !line.startsWith('---')) return 'del';
  if (line.startsWith('+') && !line.startsWith('+++')) return 'ins';
  return 'file';
}

// The fixed ticket: the diff first, then the download.
let downloadUrl = '';
function fixed(m: Fixed): void {
  const t = tickets.find((x) => x.id === m.id);
  if (!t || t !== selected) return;
  const link = byId<HTMLAnchorElement>('download');
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = '';
  if (m.bytes) {
    downloadUrl = URL.createObjectURL(new Blob([m.bytes], { type: 'application/octet-stream' }));
    link.href = downloadUrl;
    link.download = t.name;
  }
  link.hidden = !m.bytes;
  byId('fix-summary').textContent = m.refused
    ? `${t.name} is not fixed: ${m.refused}.`
    : m.edits === 0
      ? `Nothing in ${t.name} can be fixed safely.`
      : `${plural(m.edits, 'value')} change; every other byte (encoding, line ends, quoting, comments) stays as it was.`;
  const diff = byId('diff');
  diff.hidden = m.diff === '';
  const lines = m.diff.replace(/\n$/, '').split('\n');
  diff.replaceChildren(...(m.diff === '' ? [] : lines.map((line) => h('span', { class: diffClass(line) }, line + '\n'))));
  byId('skipped').replaceChildren(
    ...(m.skipped.length === 0
      ? []
      : [
          h('h3', {}, `Not fixed (${m.skipped.length})`),
          h('ul', {}, ...m.skipped.map((s) => h('li', {}, `${s.line}:${s.column} `, h('code', {}, JSON.stringify(s.value)), ' \u2192 ', h('code', {}, JSON.stringify(s.fixed)), `: ${s.reason}`))),
        ]),
  );
  status(byId('fix-summary').textContent!);
  byId<HTMLDialogElement>('fix-dialog').showModal();
}

byId('fix-button').addEventListener('click', () => {
  if (!selected) return;
  const input = typeof selected.input === 'string' ? selected.input : selected.input.slice(0);
  send({ type: 'fix', id: selected.id, name: selected.name, input, options: options() }, `Fixing ${selected.name}`);
});
byId('fix-close').addEventListener('click', () => byId<HTMLDialogElement>('fix-dialog').close());

/** Stops the worker and whatever it was doing, and starts a fresh one. */
function restart(message: string): void {
  worker.terminate();
  worker = startWorker();
  for (const id of busy.keys()) {
    const t = tickets.find((x) => x.id === id);
    if (!t) continue;
    t.button.removeAttribute('aria-busy');
    if (!t.result) t.button.querySelector('.counts')!.textContent = '(not checked)';
  }
  busy.clear();
  updateBusy();
  status(message);
}

byId('cancel').addEventListener('click', () => restart('Cancelled.'));

// Input: drop anywhere on the page, choose files, or paste.
const drop = byId('drop');
document.addEventListener('dragover', (event) => {
  event.preventDefault();
  drop.classList.add('over');
});
document.addEventListener('dragleave', () => drop.classList.remove('over'));
document.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('over');
  if (event.dataTransfer?.files.length) void addFiles(event.dataTransfer.files);
});
byId<HTMLInputElement>('choose').addEventListener('change', (event) => {
  const input = event.target as HTMLInputElement;
  if (input.files) void addFiles(input.files).then(() => (input.value = ''));
});
byId('paste-check').addEventListener('click', () => {
  const text = byId<HTMLTextAreaElement>('paste').value;
  if (text.trim() !== '') add(`pasted-${nextId}.jdf`, text, text.length);
});

// Options: the shown ticket and the URL box are checked again with the new ones.
for (const id of ['opt-profile', 'opt-platform', 'opt-version', 'opt-base', 'opt-drive', 'opt-strict', 'opt-machine']) {
  byId(id).addEventListener('change', () => {
    if (id === 'opt-machine') configSummary();
    for (const t of tickets) check(t);
    checkUrlNow();
  });
}

// The views config: loaded or pasted, checked by the worker as validate --config checks the file.
let config: { name: string; views: PageViews; viewNames: string[]; storages: number; urlAttributes: number } | null = null;
let configRequest = { id: 0, name: '', pasted: false };

function sendConfig(name: string, text: string, pasted: boolean): void {
  configRequest = { id: nextId++, name, pasted };
  byId('config-status').replaceChildren(h('p', {}, `Checking ${name}…`));
  worker.postMessage({ type: 'config', id: configRequest.id, text } satisfies ToWorker);
}

function configChecked(m: ConfigChecked): void {
  if (m.id !== configRequest.id) return;
  const { name, pasted } = configRequest;
  const textarea = byId<HTMLTextAreaElement>('config-text');
  if ('problems' in m) {
    // The config in use (if any) stays; the new one's problems are listed where they are.
    if (pasted) textarea.setAttribute('aria-invalid', 'true');
    byId('config-status').replaceChildren(
      h('p', { class: 'bad' }, `Not valid: ${name} (${plural(m.problems.length, 'problem')})${config ? `; still using ${config.name}` : ''}`),
      h('ul', { id: 'config-problems' }, ...m.problems.map((p) => h('li', { 'data-line': p.line, 'data-column': p.column }, h('span', { class: 'where' }, `${p.line}:${p.column}`), ' ', h('span', { class: 'message' }, p.message)))),
    );
    return;
  }
  textarea.removeAttribute('aria-invalid');
  config = { name, views: m.views, viewNames: m.viewNames, storages: m.storages, urlAttributes: m.urlAttributes };
  const machine = byId<HTMLSelectElement>('opt-machine');
  const own = m.views.table.machine;
  // The config's machine for any host ("*", or its one name), else none: a page has no host name.
  machine.replaceChildren(
    ...(own === undefined ? [h('option', { value: '' }, 'none (no local paths)')] : []),
    ...m.viewNames.map((v) => h('option', { value: v }, v)),
  );
  machine.value = own ?? '';
  machine.disabled = false;
  byId('config-remove').hidden = false;
  configSummary();
  for (const t of tickets) check(t);
}

/** One line: what the config holds, and which view this machine is. */
function configSummary(): void {
  if (!config) return;
  const machine = byId<HTMLSelectElement>('opt-machine').value;
  const attributes = config.urlAttributes > 0 ? `, ${plural(config.urlAttributes, 'URL attribute')}` : '';
  const settings = Object.keys(config.views.rules).length;
  const rules = settings > 0 ? `, ${plural(settings, 'rule setting')}` : '';
  const vocabularies = config.views.vocabularies.length > 0 ? `, vocabularies ${config.views.vocabularies.join(', ')}` : '';
  byId('config-status').replaceChildren(
    h('p', { id: 'config-summary' }, `Using ${config.name}: ${plural(config.viewNames.length, 'view')} (${config.viewNames.join(', ')}), ${plural(config.storages, 'storage row')}${attributes}${vocabularies}${rules}; this machine's view: ${machine === '' ? 'none' : machine}.`),
  );
}

byId<HTMLInputElement>('config-file').addEventListener('change', (event) => {
  const input = event.target as HTMLInputElement;
  const file = input.files?.[0];
  if (file) void file.text().then((text) => sendConfig(file.name, text, false)).then(() => (input.value = ''));
});
byId('config-use').addEventListener('click', () => sendConfig('pasted config', byId<HTMLTextAreaElement>('config-text').value, true));
byId('config-remove').addEventListener('click', () => {
  config = null;
  configRequest = { id: 0, name: '', pasted: false };
  const machine = byId<HTMLSelectElement>('opt-machine');
  machine.replaceChildren(h('option', { value: '' }, 'no config'));
  machine.disabled = true;
  byId('config-remove').hidden = true;
  byId('config-text').removeAttribute('aria-invalid');
  byId('config-status').replaceChildren(h('p', {}, 'No views config: references are not mapped.'));
  for (const t of tickets) check(t);
});

// Check one URL.
let urlRequest = 0;
let urlTimer = 0;
function checkUrlNow(): void {
  const url = byId<HTMLInputElement>('url-value').value;
  if (url === '') {
    byId('url-result').replaceChildren();
    return;
  }
  urlRequest = nextId++;
  const role = byId<HTMLSelectElement>('url-role').value as 'url' | 'directory';
  worker.postMessage({ type: 'check-url', id: urlRequest, url, base: byId<HTMLInputElement>('url-base').value, role, options: options() } satisfies ToWorker);
}
byId('url-form').addEventListener('submit', (event) => {
  event.preventDefault();
  checkUrlNow();
});
for (const id of ['url-value', 'url-base', 'url-role']) {
  byId(id).addEventListener('input', () => {
    clearTimeout(urlTimer);
    urlTimer = window.setTimeout(checkUrlNow, 150);
  });
}
document.body.dataset.ready = 'true';
