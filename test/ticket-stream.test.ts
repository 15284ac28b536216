// validateTicketStream against validateTicket: collecting what the stream hands over gives the array report, on
// every sample and on random tickets (a seeded generator of the things that make a reference wait: Directories
// without their "/", used or not; values reached through several rRefs, with fixes; directives; containers).
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket, validateTicketStream, type LocatedFinding, type TicketReference, type TicketReport, type ValidateOptions } from '../src/index.js';
import { projectRoot } from './helpers.js';
import { random, randomTicket } from './random-tickets.js';

const HOT = 'file:///pub/hot-folder/ticket.jdf';

/** What the stream hands over, in order, put together as validateTicket's report is (its keys in their order). */
function collected(input: string | Uint8Array, options: ValidateOptions): { report: TicketReport; order: string[] } {
  const references: TicketReference[] = [];
  const findings: LocatedFinding[] = [];
  const order: string[] = [];
  let report: TicketReport | undefined;
  let encoding: string | undefined;
  validateTicketStream(input, options, {
    start(head) {
      order.push('start');
      encoding = head.encoding;
    },
    reference(ref) {
      order.push('reference');
      references.push(JSON.parse(JSON.stringify(ref))); // as it was when handed over (its words too): nothing may change it afterwards
    },
    finding(f) {
      order.push('finding');
      findings.push(JSON.parse(JSON.stringify(f)));
    },
    end(summary) {
      order.push('end');
      assert.is(summary.encoding, encoding);
      assert.is(summary.references, references.length);
      assert.is(summary.findings, findings.length);
      report = { encoding: summary.encoding, references, findings };
      if (summary.root !== undefined) report.root = summary.root;
      if (summary.jdfVersion !== undefined) report.jdfVersion = summary.jdfVersion;
      if (summary.suppressed !== undefined) report.suppressed = summary.suppressed;
    },
  });
  return { report: report!, order };
}

function assertSame(input: string | Uint8Array, options: ValidateOptions, what: string): void {
  const whole = JSON.parse(JSON.stringify(validateTicket(input, options)));
  const { report, order } = collected(input, options);
  assert.equal(JSON.parse(JSON.stringify(report)), whole, what);
  // The start, the references, then the file's findings, then the end, once.
  assert.is(order.join(' '), ['start', ...Array(whole.references.length).fill('reference'), ...Array(whole.findings.length).fill('finding'), 'end'].join(' '), what);
}

const samples = readdirSync(new URL('samples/', projectRoot)).filter((n) => !n.endsWith('.json') && !n.endsWith('.txt'));

test('every sample: collecting the stream gives validateTicket\'s report, with and without settings', () => {
  assert.ok(samples.length >= 10);
  for (const name of samples) {
    const bytes = new Uint8Array(readFileSync(new URL(`samples/${name}`, projectRoot)));
    assertSame(bytes, { documentUri: HOT }, name);
    assertSame(bytes, {}, `${name}, no document URI`);
    assertSame(bytes, { documentUri: HOT, profile: 'rfc8089', rules: { 'unescaped-space': 'off', 'directory-without-trailing-slash': 'error' }, reportUnusedDisableDirectives: true }, `${name}, with rule settings`);
  }
});

test('random tickets: collecting the stream gives validateTicket\'s report', () => {
  const rnd = random(33);
  for (let k = 0; k < 400; k++) {
    const ticket = randomTicket(rnd);
    const options: ValidateOptions = rnd() < 0.5 ? { documentUri: HOT } : { documentUri: HOT, rules: { 'unescaped-space': 'info' }, reportUnusedDisableDirectives: true };
    assertSame(ticket, options, `random ticket ${k}:\n${ticket}`);
  }
});

test('the cases that make a reference wait: a fix refused for a later use only, a Directory used late or never', () => {
  // FS0's fix ("pages/p3.pdf") names another file under the second RunList's Directory (a Windows path): the
  // first use, handed over before the second is reached, must be refused too.
  const rl = (i: number, d: string) => `<RunList ID="RL${i}" Class="Parameter" Directory="${d}"><LayoutElement><FileSpecRef rRef="FS0"/></LayoutElement></RunList>`;
  const twice = `<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.4"><ResourcePool><FileSpec ID="FS0" Class="Parameter" URL="pages\\p3.pdf"/>${rl(1, 'file:///c:/Jobs/4711/')}${rl(2, 'C:\\Jobs\\x')}</ResourcePool></JDF>`;
  const uses = validateTicket(twice, { documentUri: HOT }).references.filter((r) => r.attribute === 'URL');
  assert.is(uses.length, 2);
  assert.ok(uses.every((u) => u.fixRefused !== undefined && u.fixed === undefined));
  assertSame(twice, { documentUri: HOT }, 'a fix refused for the second use');
  // A Directory without "/" that only absolute values are under, and one whose first relative value comes last.
  const spec = (url: string) => `<LayoutElement><FileSpec URL="${url}"/></LayoutElement>`;
  const late = `<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.4"><ResourcePool><RunList ID="A" Directory="file:///srv/a">${spec('file:///x/1.pdf')}${spec('file:///x/2.pdf')}</RunList><RunList ID="B" Directory="file:///srv/b">${spec('file:///x/3.pdf')}${spec('rel 4.pdf')}</RunList>${spec('http://h/5.pdf')}</ResourcePool></JDF>`;
  const dirs = validateTicket(late, { documentUri: HOT }).references.filter((r) => r.attribute === 'Directory');
  assert.equal(dirs.map((d) => d.findings.filter((f) => f.code === 'directory-without-trailing-slash').map((f) => `${f.code} ${f.severity}`)), [['directory-without-trailing-slash info'], ['directory-without-trailing-slash warning']]);
  assertSame(late, { documentUri: HOT }, 'Directories used late or never');
});

test('each reference is handed over as the walk reaches it, not at the end: the first before the second value is checked', () => {
  // localHosts is read once for each file URL with a host checkUrl checks: a count of the walk's progress.
  let checked = 0;
  const localHosts = new Proxy(['here'], { get: (target, key, receiver) => (key === 'some' && checked++, Reflect.get(target, key, receiver)) });
  const specs = Array.from({ length: 1000 }, (_, i) => `<RunList Run="${i}"><LayoutElement><FileSpec URL="file://server${i}/p.pdf"/></LayoutElement></RunList>`).join('\n');
  const ticket = `<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.4"><ResourcePool><RunList ID="R">${specs}</RunList></ResourcePool></JDF>`;
  const checkedAt: number[] = [];
  validateTicketStream(ticket, { localHosts }, { reference: () => checkedAt.push(checked), finding() {}, end() {} });
  assert.is(checkedAt.length, 1000);
  assert.is(checked, 1000);
  // The k-th reference is handed over once the k-th value is checked, before the next one is.
  assert.equal(checkedAt.slice(0, 3), [1, 2, 3]);
  assert.is(checkedAt[999], 1000);
});

test.run();
