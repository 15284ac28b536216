// npm run test:browser: the built page (site/dist/index.html) in Debian's chromium, driven by playwright-core
// (nothing is downloaded: the browser is the system's). The expected values come from the CLI on the same
// files, from the spec text, or from how a fixture was built; never from the page's own code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ruleCatalog } from '../../src/rules/catalog.js';
import { projectRoot } from '../helpers.js';

const root = fileURLToPath(projectRoot);
const dist = path.join(root, 'site', 'dist');
const pageUrl = pathToFileURL(path.join(dist, 'index.html')).href;
const samplesDir = path.join(root, 'samples');
const samplesBase = pathToFileURL(samplesDir).href + '/';
const artifacts = process.env.ARTIFACTS_DIR ?? path.join(root, 'artifacts');
const work = mkdtempSync(path.join(tmpdir(), 'jfs-site-'));
/** What the policy test tries to reach (the policy must refuse it; nothing listens there). */
const PROBE = 'http://127.0.0.1:9/csp-probe/';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Flags for a quiet, offline headless run with a fresh profile. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Seen {
  code: string;
  severity: string;
  line: number;
  column: number;
  message: string;
  fix?: string;
  /** The values of its suggestions, in order. */
  suggestions?: string[];
}

/** SITE_DEBUG=1 prints each step on standard error. */
const step = process.env.SITE_DEBUG ? (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`) : () => undefined;

let context: BrowserContext;
let page: Page;
const requests: string[] = [];

function cli(args: string[], input?: Buffer | string): string {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/src/cli/main.js'), ...args], { encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024 });
  assert.ok(r.status === 0 || r.status === 1, `jdf-filespec ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The CLI's findings for one ticket, from its JSON report. */
function cliFindings(args: string[], input?: Buffer | string): Seen[] {
  const report = JSON.parse(cli(['validate', ...args, '--format', 'json', '--exit-zero'], input));
  const file = report.files[0];
  const all = [...file.findings, ...file.references.flatMap((r: { findings: unknown[] }) => r.findings)];
  type Found = Omit<Seen, 'suggestions'> & { suggestions?: Array<{ fix: string }> };
  return sorted(all.map((f: Found) => ({ code: f.code, severity: f.severity, line: f.line, column: f.column, message: f.message, ...(f.fix !== undefined ? { fix: f.fix } : {}), ...(f.suggestions !== undefined ? { suggestions: f.suggestions.map((x) => x.fix) } : {}) })));
}

function sorted(list: Seen[]): Seen[] {
  const key = (f: Seen) => `${String(f.line).padStart(8, '0')}:${String(f.column).padStart(8, '0')}:${f.code}:${f.message}`;
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The findings the page lists for the ticket it shows (every page of every group is drawn first). */
async function pageFindings(p: Page = page): Promise<Seen[]> {
  while (await p.locator('#findings button.more:visible').count()) await p.locator('#findings button.more:visible').first().click();
  const list = await p.$$eval('#findings li.finding', (items) =>
    items.map((li) => {
      const e = li as HTMLElement;
      const fix = e.querySelector('.fix code')?.textContent;
      const suggestions = Array.from(e.querySelectorAll('.suggestion code'), (c) => c.textContent!);
      return { code: e.dataset.code!, severity: e.dataset.severity!, line: Number(e.dataset.line), column: Number(e.dataset.column), message: e.querySelector('.msg')!.textContent!, ...(fix != null ? { fix } : {}), ...(suggestions.length > 0 ? { suggestions } : {}) };
    }),
  );
  return sorted(list);
}

async function idle(p: Page, tickets: number): Promise<void> {
  await p.waitForFunction((n) => document.querySelectorAll('#ticket-list button').length === n && document.body.dataset.busy === 'false' && document.body.dataset.shown === (document.querySelector('#ticket-list button[aria-current="true"]') as HTMLElement | null)?.dataset.id, tickets);
}

/** Drops a file on the page as a user would (a drop event with a DataTransfer holding the file). */
async function drop(p: Page, name: string, bytes: Buffer): Promise<void> {
  step(`drop ${name}`);
  const before = await p.locator('#ticket-list button').count();
  await p.evaluate(([fileName, base64]) => {
    const binary = atob(base64);
    const data = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], fileName));
    document.getElementById('drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, [name, bytes.toString('base64')] as const);
  await idle(p, before + 1);
  assert.is(await p.locator('#result-title').textContent(), name);
}

async function setOption(id: string, value: string | boolean): Promise<void> {
  step(`option ${id} = ${value}`);
  const tickets = await page.locator('#ticket-list button').count();
  if (typeof value === 'boolean') await page.locator(`#${id}`).setChecked(value);
  else if (id.startsWith('opt-profile') || id.startsWith('opt-platform')) await page.selectOption(`#${id}`, value);
  else {
    // Tab out, as a user would: the change event comes from the browser.
    await page.fill(`#${id}`, value);
    await page.press(`#${id}`, 'Tab');
  }
  await idle(page, tickets);
}

const samples = readdirSync(samplesDir).filter((f) => /\.(jdf|xjdf|jmf)$/.test(f)).sort();

test.before(async () => {
  step('launch');
  assert.ok(existsSync(path.join(dist, 'index.html')), 'site/dist/index.html is built (npm run site)');
  context = await chromium.launchPersistentContext(mkdtempSync(path.join(work, 'chromium-')), {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 }, acceptDownloads: true,
  });
  context.on('request', (r) => requests.push(r.url()));
  // A broken page fails a step in seconds instead of hanging the run.
  context.setDefaultTimeout(20_000);
  page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pageUrl);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(errors, []);
});

test.after(async () => {
  await context?.close();
  rmSync(work, { recursive: true, force: true });
});

test('every sample dropped without a base: the same findings as validate on standard input', async () => {
  for (const name of samples) {
    const bytes = readFileSync(path.join(samplesDir, name));
    await drop(page, name, bytes);
    assert.equal(await pageFindings(), cliFindings(['-'], bytes), name);
  }
});

test('with a base and other options: the same findings as validate with those options', async () => {
  await setOption('opt-base', samplesBase);
  for (const name of samples) {
    await page.locator(`#ticket-list button`).filter({ hasText: name }).first().click();
    await page.waitForFunction((n) => document.getElementById('result-title')!.textContent === n, name);
    assert.equal(await pageFindings(), cliFindings([path.join(samplesDir, name), '--base', samplesBase]), name);
  }
  await setOption('opt-profile', 'lenient');
  await setOption('opt-platform', 'windows');
  await setOption('opt-drive', true);
  await setOption('opt-version', '1.2');
  await page.locator(`#ticket-list button`).filter({ hasText: 'table4-bad.jdf' }).first().click();
  assert.equal(await pageFindings(), cliFindings([path.join(samplesDir, 'table4-bad.jdf'), '--base', samplesBase, '--profile', 'lenient', '--platform', 'windows', '--drive-preserving', '--jdf-version', '1.2']));
  await setOption('opt-profile', 'jdf');
  await setOption('opt-platform', 'any');
  await setOption('opt-drive', false);
  await setOption('opt-version', '');
});

test('pasted XML: the same findings as validate on standard input', async () => {
  const text = readFileSync(path.join(samplesDir, 'directory-no-slash.jdf'), 'utf8').replace(/\n/g, '\r\n');
  await setOption('opt-base', '');
  const before = await page.locator('#ticket-list button').count();
  await page.locator('#paste-box summary').click();
  await page.fill('#paste', text);
  await page.click('#paste-check');
  await idle(page, before + 1);
  assert.equal(await pageFindings(), cliFindings(['-'], text));
});

test('a value with two meanings (file:/host/share/x.pdf): its suggestions as validate and check give them, no fix', async () => {
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="file:/host/share/x.pdf"/></LayoutElement></RunList></ResourcePool></JDF>\n';
  await setOption('opt-base', '');
  const before = await page.locator('#ticket-list button').count();
  await page.fill('#paste', text);
  await page.click('#paste-check');
  await idle(page, before + 1);
  const expected = cliFindings(['-'], text);
  assert.ok(expected.some((f) => f.suggestions?.length === 2 && f.fix === undefined), 'validate gives two suggestions and no fix');
  assert.equal(await pageFindings(), expected);
  await page.fill('#url-base', '');
  await page.fill('#url-value', 'file:/host/share/x.pdf');
  await page.press('#url-value', 'Enter');
  await page.waitForFunction(() => document.querySelector('#url-result > p > code')?.textContent === '"file:/host/share/x.pdf"');
  const want = JSON.parse(cli(['check', 'file:/host/share/x.pdf', '--format', 'json', '--exit-zero']))[0].findings.flatMap((f: { suggestions?: Array<{ fix: string }> }) => (f.suggestions ?? []).map((x) => x.fix));
  assert.equal(await page.$$eval('#url-result .suggestion code', (codes) => codes.map((c) => c.textContent)), want);
  assert.is(want.length, 2);
});

test('a click on a finding highlights its line in the source; a click on its mark comes back; arrow keys move', async () => {
  await setOption('opt-base', samplesBase);
  await page.locator(`#ticket-list button`).filter({ hasText: 'table4-bad.jdf' }).first().click();
  const expected = cliFindings([path.join(samplesDir, 'table4-bad.jdf'), '--base', samplesBase]);
  const backslash = expected.find((f) => f.code === 'backslash')!;
  await page.locator(`#findings li.finding[data-code="backslash"]`).click();
  assert.is(await page.locator('#source .row.current').getAttribute('data-line'), String(backslash.line));
  assert.is(await page.locator('#source .row.current mark.current').first().textContent().then((t) => t!.startsWith('\\')), true, 'the mark starts at the backslash');
  // Keyboard: down to the next finding in the list, and its line is highlighted.
  await page.keyboard.press('ArrowDown');
  const next = await page.evaluate(() => (document.activeElement as HTMLElement).dataset);
  assert.is(next.code !== 'backslash', true);
  assert.is(await page.locator('#source .row.current').getAttribute('data-line'), next.line);
  await page.keyboard.press('End');
  const last = await page.evaluate(() => (document.activeElement as HTMLElement).dataset);
  assert.is(await page.locator('#source .row.current').getAttribute('data-line'), last.line);
  // Back: a click on a mark in the source focuses its finding in the list.
  await page.locator(`#findings li.finding[data-code="backslash"]`).click();
  await page.locator('#findings li.finding').first().focus();
  await page.locator('#source .row[data-line="' + backslash.line + '"] mark').first().click();
  const back = await page.evaluate(() => (document.activeElement as HTMLElement).dataset);
  assert.is(back.code, 'backslash');
  assert.is(back.line, String(backslash.line));
});

test('a screenshot of a fresh page checking samples/table4-bad.jdf (kept in artifacts/)', async () => {
  const p = await context.newPage();
  try {
    await p.goto(pageUrl);
    await p.waitForFunction(() => document.body.dataset.ready === 'true');
    await drop(p, 'table4-bad.jdf', readFileSync(path.join(samplesDir, 'table4-bad.jdf')));
    await p.locator(`#findings li.finding[data-code="backslash"]`).click();
    assert.is(await p.locator('#source .row.current').getAttribute('data-line'), '13');
    await p.evaluate(() => window.scrollTo(0, 0));
    mkdirSync(artifacts, { recursive: true });
    await p.screenshot({ path: path.join(artifacts, 'site-table4-bad.png'), fullPage: true });
  } finally {
    await p.close();
  }
});

/** Tickets in other encodings and line ends, for the download. */
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF Version="1.2" ID='n1'><ResourcePool>
  <RunList ID="RL1" Directory='file:///srv/jobs/4711'>
    <LayoutElement><FileSpec URL="my docs/Müller &amp; Co.pdf"/></LayoutElement>
    <LayoutElement><FileSpec URL='art\\logo.eps'/></LayoutElement>
  </RunList>
</ResourcePool></JDF>
`;
const variants: Array<[string, Buffer]> = [
  ['utf16le-crlf.jdf', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TICKET.replace('UTF-8', 'UTF-16').replace(/\n/g, '\r\n'), 'utf16le')])],
  ['latin1-cr.jdf', Buffer.from(TICKET.replace('UTF-8', 'ISO-8859-1').replace(/\n/g, '\r'), 'latin1')],
];

test('"Download fixed ticket" gives the bytes of fix on a copy, after showing the diff', async () => {
  await setOption('opt-base', samplesBase);
  const files: Array<[string, Buffer]> = [...samples.map((n) => [n, readFileSync(path.join(samplesDir, n))] as [string, Buffer]), ...variants];
  for (const [name, bytes] of files) {
    if (!(await page.locator('#ticket-list button').filter({ hasText: name }).count())) await drop(page, name, bytes);
    else {
      await page.locator('#ticket-list button').filter({ hasText: name }).first().click();
      await page.waitForFunction((n) => document.getElementById('result-title')!.textContent === n, name);
    }
    const copy = path.join(work, name);
    writeFileSync(copy, bytes);
    cli(['fix', copy, '--base', samplesBase]);
    const expected = readFileSync(copy);
    await page.click('#fix-button');
    await page.waitForSelector('#fix-dialog[open]');
    const changed = !expected.equals(bytes);
    assert.is(await page.locator('#download').isVisible(), changed, `${name}: a download exactly when fix changes the file`);
    if (changed) {
      // The diff shown is fix --dry-run's (its lines after the two file names).
      const dryCopy = path.join(work, `dry-${name}`);
      writeFileSync(dryCopy, bytes);
      const body = (d: string) => d.split('\n').slice(2).filter((l) => /^(@@|[-+])/.test(l)).join('\n');
      // fix --dry-run writes each hunk in the ticket's own bytes (git apply needs them); the page shows the diff as
      // text. A single-byte ticket's hunks read in its charset are the page's lines. A UTF-16 ticket's hunks are
      // numbered in the byte lines git sees, so only its download (below) is compared.
      const dry = spawnSync(process.execPath, [path.join(root, 'dist/src/cli/main.js'), 'fix', dryCopy, '--base', samplesBase, '--dry-run'], { maxBuffer: 1 << 28 }).stdout;
      const encoding = JSON.parse(cli(['validate', copy, '--format', 'json', '--exit-zero'])).files[0].encoding as string;
      if (!encoding.startsWith('UTF-16')) assert.is(body((await page.locator('#diff').textContent())!), body(dry.toString(encoding === 'UTF-8' ? 'utf8' : 'latin1')), `${name}: the diff`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      assert.is(download.suggestedFilename(), name);
      const got = readFileSync((await download.path())!);
      assert.ok(got.equals(expected), `${name}: the downloaded bytes are fix's`);
    }
    await page.click('#fix-close');
  }
});

test('a dropped ticket has no base, yet its relative references are fixed as fix fixes them in the ticket\'s folder', async () => {
  await setOption('opt-base', '');
  const bytes = readFileSync(path.join(samplesDir, 'ticket.xjdf'));
  const folder = mkdtempSync(path.join(work, 'no-base-'));
  const copy = path.join(folder, 'relative.xjdf');
  writeFileSync(copy, bytes);
  cli(['fix', copy]); // the CLI's base is the ticket's own folder
  const expected = readFileSync(copy);
  assert.not.ok(expected.equals(bytes), 'fix changes the sample (previews/p1 front.png)');
  await drop(page, 'relative.xjdf', bytes);
  await page.click('#fix-button');
  await page.waitForSelector('#fix-dialog[open]');
  assert.ok(await page.locator('#download').isVisible(), await page.locator('#fix-summary').textContent() ?? '');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.ok(readFileSync((await download.path())!).equals(expected), 'the downloaded bytes are fix\'s');
  await page.click('#fix-close');
});

test('60 tickets: totals across them, a filter by severity and rule, one tab stop, a status line for the ticket shown', async () => {
  const p = await context.newPage();
  await p.goto(pageUrl);
  await p.waitForFunction(() => document.body.dataset.ready === 'true');
  // Absolute references, so the page (no base) and the CLI (the file's folder) read them alike.
  const folder = mkdtempSync(path.join(work, 'sixty-'));
  const files: Array<[string, string]> = [];
  for (let k = 0; k < 60; k++) {
    const url = k % 3 === 0 ? 'file:///c:/jobs/a b.pdf' : k % 5 === 0 ? 'ftp://host/a.pdf' : 'file:///c:/jobs/ok.pdf';
    const text = `<JDF ID="n${k}" Type="Product" Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool><ResourceLinkPool><RunListLink rRef="r" Usage="Input"/></ResourceLinkPool></JDF>`;
    files.push([`t${k}.jdf`, text]);
    writeFileSync(path.join(folder, `t${k}.jdf`), text);
  }
  const report = JSON.parse(cli(['validate', folder, '--format', 'json', '--exit-zero']));
  const expected = { error: 0, warning: 0, info: 0, clean: 0 };
  const byCode = new Map<string, Set<string>>();
  const withError = new Set<string>();
  for (const file of report.files) {
    const name = path.basename(file.path ?? file.file ?? file.filePath);
    const all = [...file.findings, ...file.references.flatMap((r: { findings: unknown[] }) => r.findings)] as Seen[];
    if (all.length === 0) expected.clean++;
    for (const f of all) {
      expected[f.severity as 'error' | 'warning' | 'info']++;
      if (f.severity === 'error') withError.add(name);
      byCode.set(f.code, (byCode.get(f.code) ?? new Set()).add(name));
    }
  }
  await p.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const [name, text] of list) transfer.items.add(new File([text], name));
    document.getElementById('drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
  await idle(p, 60);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  assert.is(await p.locator('#totals').textContent(), `60 tickets: ${plural(expected.error, 'error')}, ${plural(expected.warning, 'warning')}, ${expected.info} info; ${expected.clean} without findings.`);
  // The status line speaks of the ticket shown (the first dropped), not of the last one checked.
  assert.match((await p.locator('#status-text').textContent())!, /^Checked t0\.jdf: /);
  assert.is(await p.locator('#ticket-list button[tabindex="0"]').count(), 1);
  const visible = async () => (await p.locator('#ticket-list li:not([hidden]) .name').allTextContents()).sort();
  await p.selectOption('#filter-severity', 'error');
  assert.equal(await visible(), [...withError].sort());
  await p.selectOption('#filter-severity', '');
  for (const [code, names] of byCode) {
    await p.selectOption('#filter-code', code);
    assert.equal(await visible(), [...names].sort(), code);
  }
  await p.selectOption('#filter-code', '');
  assert.is((await visible()).length, 60);
  // The arrow keys move between tickets, and the one reached is shown.
  await p.locator('#ticket-list button[tabindex="0"]').focus();
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => document.getElementById('result-title')!.textContent === 't1.jdf');
  await p.close();
});

/** A step that failed with the fix dialog open must not block the next test. */
const closeDialog = () => page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog[open]')?.close());

test('check one URL: what check prints for every example of the appendix', async () => {
  await closeDialog();
  const base = 'file:///c:/pub/jdf-folder/';
  const expected = JSON.parse(cli(['check', '--file', path.join(samplesDir, 'appendix-urls.txt'), '--base', base, '--format', 'json', '--exit-zero']));
  await page.fill('#url-base', base);
  for (const want of expected) {
    await page.fill('#url-value', want.value);
    await page.press('#url-value', 'Enter');
    await page.waitForFunction((v) => document.querySelector('#url-result > p > code')?.textContent === v, JSON.stringify(want.value));
    const got = await page.$$eval('#url-result li[data-code]', (items) => items.map((li) => ({ code: (li as HTMLElement).dataset.code, severity: (li as HTMLElement).dataset.severity, offset: (li as HTMLElement).dataset.offset, fix: li.querySelector('.fix code')?.textContent ?? null })));
    assert.equal(got, want.findings.map((f: { code: string; severity: string; offset?: number; fix?: string }) => ({ code: f.code, severity: f.severity, offset: f.offset === undefined ? '' : String(f.offset), fix: f.fix ?? null })), want.value);
    assert.is(await page.locator('#url-result code.resolved').textContent(), want.resolved, `${want.value}: resolved`);
    assert.is(await page.locator('#url-result code.all-fixes').count() ? await page.locator('#url-result code.all-fixes').textContent() : undefined, want.fixed, `${want.value}: all fixes`);
  }
});

test('check one URL: every consumer\'s reading where they differ (README example, a Directory without its "/")', async () => {
  await page.fill('#url-base', 'file:///c:/DownloadDir/Title-J626103');
  await page.fill('#url-value', '../F-22/job001.pdf');
  await page.press('#url-value', 'Enter');
  // The page's own example already shows a readings table: wait for this value's, not that one.
  await page.waitForFunction(() => document.querySelector('#url-result table.readings')?.textContent?.includes('F-22'));
  const rows = await page.$$eval('#url-result table.readings tbody tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td code')?.textContent]));
  assert.equal(rows, [
    ['strict RFC 3986', 'file:///c:/F-22/job001.pdf'],
    ['RFC 8089 E.2.1', 'file:///c:/F-22/job001.pdf'],
    ['WHATWG URL', 'file:///c:/F-22/job001.pdf'],
    ['string join', 'file:///c:/DownloadDir/F-22/job001.pdf'],
  ]);
  assert.ok((await page.locator('#url-result').textContent())!.includes('Consumers would open different files'));
  // Components of a URL with a password: the password never shows.
  await page.fill('#url-base', '');
  await page.fill('#url-value', 'ftp://user:secret@host/a.pdf');
  await page.press('#url-value', 'Enter');
  await page.waitForFunction(() => document.querySelector('#url-result > p > code')?.textContent?.includes('****'));
  assert.not.ok((await page.locator('#url-result').textContent())!.includes('secret'));
  const components = await page.$$eval('#url-result table.components tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
  assert.equal(components, [['scheme', 'ftp'], ['authority', 'user:****@host'], ['userinfo', 'user:****'], ['host', 'host'], ['port', 'not defined'], ['path', '/a.pdf'], ['query', 'not defined'], ['fragment', 'not defined']]);
});

test('100,000 FileSpecs: progress shows and the page answers while the worker checks; only visible rows are drawn', async () => {
  await closeDialog();
  // Every 20th URL holds a space: 5,000 unescaped-space errors and nothing else (JDF appendix Table 4, example 23).
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool>', '<RunList ID="RL1" Directory="file:///c:/Jobs/4711/">'];
  let lastSpaced = 0;
  for (let i = 0; i < 100_000; i++) {
    lines.push(`<LayoutElement><FileSpec URL="pages/${i % 20 === 19 ? 'p ' : 'p'}${i}.pdf"/></LayoutElement>`);
    if (i % 20 === 19) lastSpaced = lines.length;
  }
  lines.push('</RunList></ResourcePool></JDF>', '');
  const file = path.join(work, 'big.jdf');
  writeFileSync(file, lines.join('\n'));
  const before = await page.locator('#ticket-list button').count();
  await page.evaluate(() => {
    const w = window as unknown as { seen: { progress: boolean; ticks: number } };
    w.seen = { progress: false, ticks: 0 };
    const tick = () => {
      if (document.body.dataset.busy === 'true') w.seen.ticks++;
      if (!document.getElementById('progress')!.hidden) w.seen.progress = true;
      if (w.seen.ticks < 1e9) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.setInputFiles('#choose', file);
  await idle(page, before + 1);
  const seen = await page.evaluate(() => (window as unknown as { seen: { progress: boolean; ticks: number } }).seen);
  assert.ok(seen.progress, 'the progress indicator showed');
  assert.ok(seen.ticks > 1, 'the page drew frames while the worker checked');
  const counts = await page.$$eval('#findings h4', (hs) => hs.map((x) => x.textContent));
  assert.equal(counts, ['Errors (5,000)']);
  assert.ok((await page.locator('#source .row').count()) < 200, 'only the visible rows are in the page');
  // The last finding, 100,000 lines down: its line is drawn and highlighted.
  while (await page.locator('#findings button.more:visible').count()) await page.locator('#findings button.more:visible').first().click();
  await page.locator('#findings li.finding').first().click();
  await page.keyboard.press('End');
  assert.is(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.line), String(lastSpaced));
  assert.is(await page.locator('#source .row.current').getAttribute('data-line'), String(lastSpaced));
  assert.ok((await page.locator('#source .row').count()) < 200, 'still only the visible rows');
});

/** axe-core's WCAG 2 A and AA checks on the page as it is now: contrast, labels, names, roles. */
async function accessibilityViolations(p: Page): Promise<string[]> {
  await p.evaluate(readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const result = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('accessibility (axe-core, WCAG 2.1 A and AA): a ticket with a finding selected, the URL box, the fix dialog', async () => {
  const p = await context.newPage();
  try {
    await p.goto(pageUrl);
    await p.waitForFunction(() => document.body.dataset.ready === 'true');
    await drop(p, 'table4-bad.jdf', readFileSync(path.join(samplesDir, 'table4-bad.jdf')));
    await p.locator(`#findings li.finding[data-code="backslash"]`).click();
    await p.fill('#url-value', 'file://H:\\docs\\a b.pdf');
    await p.fill('#url-base', 'file:///c:/jobs');
    await p.press('#url-value', 'Enter');
    await p.waitForSelector('#url-result li[data-code]');
    assert.equal(await accessibilityViolations(p), []);
    await p.click('#fix-button');
    await p.waitForSelector('#fix-dialog[open]');
    assert.equal(await accessibilityViolations(p), []);
  } finally {
    await p.close();
  }
});

interface Mappings {
  /** Each mapped reference's mappedBy, by "line:column attribute". */
  list: Record<string, unknown>;
  /** Each finding's reference's mappedBy (null: none), as "line:column code", sorted. */
  findings: Array<[string, unknown]>;
}

const inOrder = (list: Array<[string, unknown]>) => list.map((x) => [JSON.stringify(x), x] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);

/** The mapping of each reference the CLI's view table maps, by place, from validate --format json. */
function cliMappings(args: string[]): Mappings {
  const report = JSON.parse(cli(['validate', ...args, '--format', 'json', '--exit-zero']));
  const list: Record<string, unknown> = {};
  const findings: Array<[string, unknown]> = report.files[0].findings.map((f: Seen) => [`${f.line}:${f.column} ${f.code}`, null]);
  for (const r of report.files[0].references) {
    if (r.mappedBy) list[`${r.line}:${r.column} ${r.attribute}`] = r.mappedBy;
    for (const f of r.findings) findings.push([`${f.line}:${f.column} ${f.code}`, r.mappedBy ?? null]);
  }
  return { list, findings: inOrder(findings) };
}

/** The same from the page: its list of mapped references (every page of it drawn), and each finding's line. */
async function pageMappings(p: Page): Promise<Mappings & { texts: string[] }> {
  while (await p.locator('#findings button.more:visible').count()) await p.locator('#findings button.more:visible').first().click();
  while (await p.locator('#mapped-more:visible').count()) await p.click('#mapped-more');
  const items = await p.$$eval('#mapped li[data-mapped-by]', (lis) => lis.map((li) => {
    const e = li as HTMLElement;
    const attribute = /\/@([^ ]+)$/.exec(e.querySelector('code')!.textContent!)![1];
    return { key: `${e.dataset.line}:${e.dataset.column} ${attribute}`, mappedBy: JSON.parse(e.dataset.mappedBy!), text: e.querySelector('.text')!.textContent! };
  }));
  const findings = await p.$$eval('#findings li.finding', (lis) => lis.map((li) => {
    const e = li as HTMLElement;
    const mapped = e.querySelector<HTMLElement>('.mapped');
    return [`${e.dataset.line}:${e.dataset.column} ${e.dataset.code}`, mapped ? JSON.parse(mapped.dataset.mappedBy!) : null] as [string, unknown];
  }));
  return { list: Object.fromEntries(items.map((i) => [i.key, i.mappedBy])), findings: inOrder(findings), texts: items.map((i) => i.text) };
}

const sampleConfig = path.join(samplesDir, 'jdf-filespec.config.json');

test('views config: loaded from a file, every sample\'s mappedBy is validate --config\'s (list, findings, text); urlAttributes apply', async () => {
  const p = await context.newPage();
  try {
    await p.goto(pageUrl);
    await p.waitForFunction(() => document.body.dataset.ready === 'true');
    await p.fill('#opt-base', samplesBase);
    await p.press('#opt-base', 'Tab');
    await p.setInputFiles('#config-file', sampleConfig);
    await p.waitForSelector('#config-summary');
    // The config's machine for any other host ("*": rip), as validate picks on a host the config does not name.
    assert.is(await p.locator('#config-summary').textContent(), "Using jdf-filespec.config.json: 4 views (mis, rip, mac, web), 2 storage rows; this machine's view: rip.");
    assert.is(await p.locator('#opt-machine').inputValue(), 'rip');
    let mapped = 0;
    for (const name of samples) {
      await drop(p, name, readFileSync(path.join(samplesDir, name)));
      const file = path.join(samplesDir, name);
      const expected = cliMappings([file, '--config', sampleConfig]);
      const got = await pageMappings(p);
      assert.equal(got.list, expected.list, `${name}: the mapped references`);
      assert.equal(got.findings, expected.findings, `${name}: each finding's reference`);
      // The words are validate --references's line under each reference.
      const text = cli(['validate', file, '--config', sampleConfig, '--references', '--exit-zero']);
      assert.equal(got.texts, text.split('\n').filter((l) => /^\s+mapped by /.test(l)).map((l) => l.trim()), `${name}: the text`);
      mapped += Object.keys(expected.list).length;
    }
    assert.ok(mapped >= 5, `the samples have references under the config's rows (${mapped})`);
    // urlAttributes: a vendor attribute read as a Directory, its finding and its mapping as validate gives them.
    const config = path.join(work, 'vendor.config.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(sampleConfig, 'utf8')), $schema: undefined, urlAttributes: ['Device/@HDM:Hotfolder=directory'] }, null, 2));
    await p.setInputFiles('#config-file', config);
    await p.waitForFunction(() => document.getElementById('config-summary')?.textContent?.includes('1 URL attribute'));
    const vendor = path.join(work, 'vendor.jdf');
    writeFileSync(vendor, '<?xml version="1.0" encoding="UTF-8"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" xmlns:HDM="www.heidelberg.com/schema/HDM" ID="n1" Type="Product" Version="1.4">\n'
      + '<ResourcePool><Device ID="D1" Class="Implementation" HDM:Hotfolder="file://fileserver/Jobs/hot folder"/></ResourcePool></JDF>\n');
    await drop(p, 'vendor.jdf', readFileSync(vendor));
    await idle(p, samples.length + 1);
    assert.equal(await pageFindings(p), cliFindings([vendor, '--config', config, '--base', samplesBase]));
    const expected = cliMappings([vendor, '--config', config]);
    assert.equal(Object.keys(expected.list), ['3:69 HDM:Hotfolder'], 'the vendor attribute is a reference, and mapped');
    const got = await pageMappings(p);
    assert.equal([got.list, got.findings], [expected.list, expected.findings]);
    // Another view as this machine's: mac, whose path is its one prefix.
    await p.selectOption('#opt-machine', 'mac');
    await p.waitForFunction(() => document.querySelector('#mapped li[data-mapped-by]')?.getAttribute('data-mapped-by')?.includes('/Volumes/Jobs/'));
    assert.equal(JSON.parse((await p.locator('#mapped li[data-mapped-by]').first().getAttribute('data-mapped-by'))!).path, '/Volumes/Jobs/hot folder');
    assert.equal(await accessibilityViolations(p), []);
    await p.click('#config-remove');
    await idle(p, samples.length + 1);
    assert.is(await p.locator('#mapped-box').isHidden(), true);
    assert.is(await p.locator('#findings .mapped').count(), 0);
  } finally {
    await p.close();
  }
});

/** validate --config FILE's problems with a bad config: "line:column: message" each, from its usage error. */
function cliConfigProblems(file: string): string[] {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/src/cli/main.js'), 'validate', path.join(samplesDir, 'table4-bad.jdf'), '--config', file], { encoding: 'utf8' });
  assert.is(r.status, 2, r.stderr);
  return r.stderr.split('\n').filter((l) => l.startsWith(`  ${file}:`)).map((l) => l.slice(file.length + 3));
}

test('views config: a malformed one shows each problem at the line and column validate --config prints (pasted or loaded)', async () => {
  const p = await context.newPage();
  try {
    await p.goto(pageUrl);
    await p.waitForFunction(() => document.body.dataset.ready === 'true');
    const bad: Array<[string, string]> = [
      ['schema.config.json', '{\n  "views": { "mis": { "caseFolding": "yes" } },\n  "storage": { "jobs": { "mis": [] } },\n  "color": true\n}\n'],
      ['json.config.json', '{\n  "views": { "mis": {}, },\n}\n'],
      ['table.config.json', '{\n  "machine": "rip",\n  "views": { "mis": {} },\n  "storage": { "jobs": { "mis": "jobs/", "mac": "/Volumes/Jobs/" } },\n  "urlAttributes": ["Device@Hotfolder"]\n}\n'],
    ];
    await p.locator('#config-paste-box summary').click();
    for (const [k, [name, text]] of bad.entries()) {
      const file = path.join(work, name);
      writeFileSync(file, text);
      const expected = cliConfigProblems(file);
      assert.ok(expected.length > 0, name);
      if (k % 2 === 0) {
        await p.fill('#config-text', text);
        await p.click('#config-use');
      } else await p.setInputFiles('#config-file', file);
      await p.waitForFunction((n) => document.querySelector('#config-status .bad')?.textContent?.includes(n), k % 2 === 0 ? 'pasted config' : name);
      const got = await p.$$eval('#config-problems li', (lis) => lis.map((li) => `${(li as HTMLElement).dataset.line}:${(li as HTMLElement).dataset.column}: ${li.querySelector('.message')!.textContent}`));
      assert.equal(got, expected, name);
      // Announced (the status region holds them) and tied to the text box it is about.
      assert.is(await p.locator('#config-status[role="status"] #config-problems').count(), 1);
      if (k % 2 === 0) assert.is(await p.locator('#config-text').getAttribute('aria-invalid'), 'true');
    }
    assert.is(await p.locator('#opt-machine').isDisabled(), true, 'no config is in use');
    assert.equal(await accessibilityViolations(p), []);
  } finally {
    await p.close();
  }
});

test('the rule links land on a section of rules.html for every rule', () => {
  const html = readFileSync(path.join(dist, 'rules.html'), 'utf8');
  for (const rule of ruleCatalog) assert.ok(html.includes(`id="${rule.code}"`), rule.code);
});

test('from a static web server: the same page works, and asks for nothing but itself', async () => {
  const server: Server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').slice(1).split('?')[0]!;
    const file = path.join(dist, path.basename(name));
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const p = await context.newPage();
  try {
    await p.goto(`http://127.0.0.1:${port}/index.html`);
    await p.waitForFunction(() => document.body.dataset.ready === 'true');
    const bytes = readFileSync(path.join(samplesDir, 'table4-bad.jdf'));
    await drop(p, 'table4-bad.jdf', bytes);
    assert.equal(await pageFindings(p), cliFindings(['-'], bytes));
    await p.goto(`http://127.0.0.1:${port}/rules.html#backslash`);
    assert.is(await p.locator('#backslash').count(), 1);
  } finally {
    await p.close();
    server.close();
  }
});

test('the Content-Security-Policy refuses what the page did not bring: a fetch, an image, an inline script', async () => {
  const p = await context.newPage();
  const refused: string[] = [];
  p.on('console', (m) => {
    if (/Content Security Policy/.test(m.text())) refused.push(m.text());
  });
  try {
    await p.goto(pageUrl);
    const outcome = await p.evaluate(async (probe) => {
      let fetched = true;
      try {
        await fetch(`${probe}x`);
      } catch {
        fetched = false;
      }
      const img = document.createElement('img');
      img.src = `${probe}y.png`;
      document.body.append(img);
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { fetched, injected: (window as unknown as { injected?: boolean }).injected === true };
    }, PROBE);
    assert.equal(outcome, { fetched: false, injected: false });
    assert.ok(refused.some((m) => m.includes('connect')), 'the fetch was refused by the policy');
    assert.ok(refused.some((m) => m.includes('img-src')), 'the image was refused by the policy');
    assert.ok(refused.some((m) => m.includes('script-src')), 'the inline script was refused by the policy');
  } finally {
    await p.close();
  }
});

test('no request left the page: only its own files and the blobs it made', () => {
  const allowed = (u: string) =>
    u.startsWith(PROBE)
    || u === pageUrl || u.startsWith('blob:') || u.startsWith('data:') || /^http:\/\/127\.0\.0\.1:\d+\/(index|rules)\.html$/.test(u) || u === pathToFileURL(path.join(dist, 'rules.html')).href;
  assert.equal(requests.filter((u) => !allowed(u)), []);
  assert.ok(requests.includes(pageUrl));
});

test.run();
