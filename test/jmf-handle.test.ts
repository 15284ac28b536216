// handleJmf called directly, as a Node service would mount it. The submissions are hand-built here (and the
// bundled samples/submit-queue-entry.mjm); what they must get back comes from the JDF spec's ReturnCode table
// (0 accepted, 3 XML parser error, 5 not implemented, 200 invalid Resource parameters, 105 unknown QueueEntryID, 120 URL not
// accessible) and from where the fixture puts each broken URL (its line, and the column of the character at fault).
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handleJmf, type JmfOptions } from '../src/node/index.js';
import type { HttpRequest } from '../src/node/serve/types.js';
import { refusedJobCode } from '../src/jmf/return-codes.js';
import { claimSubmission } from '../src/node/jmf/claims.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

test.after(removeTempFolders);

const JMF_NS = 'http://www.CIP4.org/JDFSchema_1_1';

function request(body: string | Uint8Array, contentType: string, url = '/jmf'): HttpRequest {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { method: 'POST', url, headers: { 'content-type': contentType, host: 'serve.example:8080' }, body: (async function* () { yield bytes; })(), signal: new AbortController().signal };
}

function options(extra: Partial<JmfOptions> = {}): JmfOptions {
  return { outbox: tempFolder('jmf-outbox-'), validate: { profile: 'jdf' }, maxBytes: 10 * 1024 * 1024, toolVersion: 'test', ...extra };
}

/** The bundled sample split as HTTP carries it: its Content-Type header, and the body after the blank line. */
function sample(): { contentType: string; body: Buffer } {
  const raw = readFileSync(new URL('samples/submit-queue-entry.mjm', projectRoot));
  const text = raw.toString('latin1');
  const blank = /\r?\n\r?\n/.exec(text)!;
  return { contentType: /Content-Type: ([^\r\n]+)/.exec(text.slice(0, blank.index))![1]!, body: raw.subarray(blank.index + blank[0].length) };
}

const attr = (xml: string, name: string) => [...xml.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]!);
const notifications = (xml: string) => [...xml.matchAll(/<Notification\b[^>]*>/g)].map((m) => m[0]);

/** A stand-in downstream device: records what it is sent, answers ReturnCode `code`. */
async function downstream(code: number): Promise<{ url: string; got: Array<{ type: string; body: Buffer }>; server: Server }> {
  const got: Array<{ type: string; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/vnd.cip4-jmf+xml' });
      res.end(`<JMF xmlns="${JMF_NS}" SenderID="press" Version="1.4"><Response ID="r1" refID="C1" Type="SubmitQueueEntry" ReturnCode="${code}">${code ? '<Notification Class="Error"><Comment>press says no</Comment></Notification>' : '<QueueEntry QueueEntryID="press-42" Status="Waiting"/>'}</Response></JMF>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jmf`, got, server };
}

test('a clean MIME submission is accepted (ReturnCode 0) and forwarded byte for byte with its Content-Type', async () => {
  const down = await downstream(0);
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    const answer = await handleJmf(request(body, contentType), o);
    const xml = String(answer.body);
    assert.is(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/vnd\.cip4-jmf\+xml/);
    assert.equal(attr(xml, 'ReturnCode'), ['0']);
    assert.equal(attr(xml, 'refID'), ['C1']);
    assert.equal(notifications(xml), []);
    assert.equal(answer.job, { accepted: true, returnCode: 0 });
    assert.is(down.got.length, 1);
    assert.is(down.got[0]!.type, contentType);
    assert.ok(down.got[0]!.body.equals(body), 'the downstream gets the body exactly as sent');
    const id = attr(xml, 'QueueEntryID')[0]!;
    const status = JSON.parse(readFileSync(path.join(o.outbox, id, 'status.json'), 'utf8'));
    assert.is(status.forwarded.returnCode, 0);
    assert.ok(existsSync(path.join(o.outbox, id, 'report.sarif')));
    // The device's own QueueEntryID, which its ReturnQueueEntry to the sender's ReturnJMF will name, is relayed and known here.
    assert.equal(attr(xml, 'jfs:ForwardedQueueEntryID'), ['press-42']);
    const asked = await handleJmf(request(`<JMF xmlns="${JMF_NS}" Version="1.4"><Query ID="Q3" Type="QueueEntryStatus"><QueueEntryDef QueueEntryID="press-42"/></Query></JMF>`, 'application/vnd.cip4-jmf+xml'), o);
    assert.equal(attr(String(asked.body), 'QueueEntryID'), [id]);
  } finally {
    down.server.close();
  }
});

test('a downstream refusal is relayed: its ReturnCode and its words', async () => {
  const down = await downstream(101);
  try {
    const { contentType, body } = sample();
    const xml = String((await handleJmf(request(body, contentType), options({ forward: down.url }))).body);
    assert.equal(attr(xml, 'ReturnCode'), ['101']);
    assert.match(xml, /press says no/);
  } finally {
    down.server.close();
  }
});

const BROKEN_JDF_LINES = [
  `<JDF xmlns="${JMF_NS}" ID="n1" Type="Product" JobID="J1" Version="1.4" Status="Waiting">`,
  '  <ResourcePool>',
  '    <RunList ID="RL1" Class="Parameter" Status="Available">',
  '      <LayoutElement><FileSpec URL="file:///c:/jobs/my file.pdf"/></LayoutElement>',
  '      <LayoutElement><FileSpec URL="ftp://u:s3cr3t@host/x.pdf"/></LayoutElement>',
  '    </RunList>',
  '  </ResourcePool>',
  '</JDF>',
];

function brokenPackage(): { contentType: string; body: string } {
  const jmf = `<JMF xmlns="${JMF_NS}" SenderID="MIS" Version="1.4"><Command ID="C7" Type="SubmitQueueEntry"><QueueSubmissionParams URL="cid:jdf@x" ReturnJMF="http://mis.example/jmf"/></Command></JMF>`;
  const body = ['--b1', 'Content-Type: application/vnd.cip4-jmf+xml', 'Content-ID: <jmf@x>', '', jmf, '--b1', 'Content-Type: application/vnd.cip4-jdf+xml', 'Content-ID: <jdf@x>', '', ...BROKEN_JDF_LINES, '--b1--', ''].join('\r\n');
  return { contentType: 'multipart/related; boundary="b1"; type="application/vnd.cip4-jmf+xml"; start="<jmf@x>"', body };
}

test('a broken FileSpec is refused (ReturnCode 200, invalid Resource parameters), one Notification per finding with line and column, never forwarded', async () => {
  const down = await downstream(0);
  try {
    const { contentType, body } = brokenPackage();
    const o = options({ forward: down.url, hotFolder: tempFolder('jmf-hot-') });
    const answer = await handleJmf(request(body, contentType), o);
    const xml = String(answer.body);
    assert.equal(attr(xml, 'ReturnCode'), ['200']);
    assert.equal(answer.job, { accepted: false, returnCode: 200 });
    // RFC 3986 2: a space is not allowed in a URL; it stands on the fixture's line 4, at this column.
    const line = BROKEN_JDF_LINES[3]!;
    const space = line.indexOf(' ', line.indexOf('my')) + 1;
    const spaceNote = notifications(xml).find((n) => n.includes(`jfs:Line="4" jfs:Column="${space}"`));
    assert.ok(spaceNote, `a Notification at line 4, column ${space}`);
    assert.match(spaceNote!, /Class="Error"/);
    assert.match(spaceNote!, /jfs:Path="\/JDF\/ResourcePool\/RunList\[@ID='RL1'\]\/LayoutElement\/FileSpec\/@URL"/);
    assert.ok(notifications(xml).some((n) => /jfs:Line="5"/.test(n) && /Class="Error"/.test(n)), 'the password URL on line 5 is an error');
    assert.not.match(xml, /s3cr3t/, 'the password is never shown');
    const id = attr(xml, 'QueueEntryID')[0]!;
    const report = JSON.parse(readFileSync(path.join(o.outbox, id, 'report.json'), 'utf8'));
    const findings = report.summary.error + report.summary.warning + report.summary.info;
    assert.is(notifications(xml).length, findings, 'one Notification per finding of the report');
    assert.is(down.got.length, 0, 'a refused job is not forwarded');
    assert.equal(readdirSync(o.hotFolder!), [], 'nor dropped in the hot folder');
  } finally {
    down.server.close();
  }
});

test('a cid: URL that names no part: ReturnCode 120 (URL not accessible)', async () => {
  const { contentType, body } = brokenPackage();
  const xml = String((await handleJmf(request(body.replace('cid:jdf@x', 'cid:nothing@x'), contentType), options())).body);
  assert.equal(attr(xml, 'ReturnCode'), ['120']);
});

test('a ticket part named by its Content-Location (RFC 2557) is had: accepted, not 120', async () => {
  const jmf = `<JMF xmlns="${JMF_NS}" Version="1.4"><Command ID="L1" Type="SubmitQueueEntry"><QueueSubmissionParams URL="job/ticket.jdf"/></Command></JMF>`;
  const jdf = `<JDF xmlns="${JMF_NS}" ID="n1" Type="Product" JobID="L" Version="1.4" Status="Waiting"/>`;
  const body = ['--b2', 'Content-Type: application/vnd.cip4-jmf+xml', '', jmf, '--b2', 'Content-Type: application/vnd.cip4-jdf+xml', 'Content-Location: job/ticket.jdf', '', jdf, '--b2--', ''].join('\r\n');
  const xml = String((await handleJmf(request(body, 'multipart/related; boundary=b2; type="application/vnd.cip4-jmf+xml"'), options())).body);
  assert.equal(attr(xml, 'ReturnCode'), ['0']);
});

test('a bare JMF naming a file: ticket on this machine; the accepted job dropped into the hot folder', async () => {
  const folder = tempFolder('jmf-ticket-');
  const ticket = path.join(folder, 'job.jdf');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(ticket, `<JDF xmlns="${JMF_NS}" ID="n1" Type="Product" JobID="J2" Version="1.4" Status="Waiting"/>`);
  const jmf = `<JMF xmlns="${JMF_NS}" SenderID="MIS" Version="1.4"><Command ID="S1" Type="SubmitQueueEntry"><QueueSubmissionParams URL="${pathToFileURL(ticket).href}"/></Command></JMF>`;
  const o = options({ hotFolder: tempFolder('jmf-hot-') });
  const xml = String((await handleJmf(request(jmf, 'application/vnd.cip4-jmf+xml'), o)).body);
  assert.equal(attr(xml, 'ReturnCode'), ['0']);
  const id = attr(xml, 'QueueEntryID')[0]!;
  assert.equal(readdirSync(o.hotFolder!), [`${id}.jmf`]);
  assert.is(readFileSync(path.join(o.hotFolder!, `${id}.jmf`), 'utf8'), jmf);
  const missing = jmf.replace('job.jdf', 'gone.jdf').replace('S1', 'S2');
  assert.equal(attr(String((await handleJmf(request(missing, 'application/vnd.cip4-jmf+xml'), o)).body), 'ReturnCode'), ['120']);
});

test('a hot folder that cannot be written: ReturnCode 2 and why, the job kept in the outbox', async () => {
  const { contentType, body } = sample();
  const o = options({ hotFolder: path.join(tempFolder('jmf-hot-'), 'missing', 'in') });
  const xml = String((await handleJmf(request(body, contentType), o)).body);
  assert.equal(attr(xml, 'ReturnCode'), ['2']);
  assert.match(xml, /could not be dropped into the hot folder/);
  assert.ok(existsSync(path.join(o.outbox, attr(xml, 'QueueEntryID')[0]!, 'status.json')));
});

test('KnownMessages lists the messages answered here (JDF 1.x MessageService)', async () => {
  const xml = String((await handleJmf(request(`<JMF xmlns="${JMF_NS}" Version="1.4"><Query ID="K1" Type="KnownMessages"/></JMF>`, 'application/vnd.cip4-jmf+xml'), options())).body);
  assert.equal(attr(xml, 'ReturnCode'), ['0']);
  assert.equal(attr(xml, 'Type').slice(1).sort(), ['KnownMessages', 'QueueEntryStatus', 'QueueStatus', 'ResubmitQueueEntry', 'SubmitQueueEntry']);
});

test('XJMF is answered in XJMF: QueryKnownMessages gets ResponseKnownMessages', async () => {
  const xjmf = '<XJMF xmlns="http://www.CIP4.org/JDFSchema_2_0" Version="2.1"><Header DeviceID="MIS" ID="h" Time="2026-11-27T00:00:00Z"/><QueryKnownMessages><Header DeviceID="MIS" ID="Q9" Time="2026-11-27T00:00:00Z"/></QueryKnownMessages></XJMF>';
  const answer = await handleJmf(request(xjmf, 'application/vnd.cip4-xjmf+xml'), options());
  const xml = String(answer.body);
  assert.match(String(answer.headers['content-type']), /xjmf/);
  assert.match(xml, /<ResponseKnownMessages ReturnCode="0"/);
  assert.match(xml, /refID="Q9"/);
});

test('QueueStatus and QueueEntryStatus are answered from the outbox: a second instance sharing it answers the same', async () => {
  const first = options();
  const { contentType, body } = sample();
  const submitted = String((await handleJmf(request(body, contentType), first)).body);
  const id = attr(submitted, 'QueueEntryID')[0]!;
  const second: JmfOptions = { ...options(), outbox: first.outbox };
  const queue = (o: JmfOptions) => handleJmf(request(`<JMF xmlns="${JMF_NS}" Version="1.4"><Query ID="Q1" Type="QueueStatus"/></JMF>`, 'application/vnd.cip4-jmf+xml'), o).then((a) => String(a.body));
  const [a, b] = [await queue(first), await queue(second)];
  assert.equal(attr(a, 'QueueEntryID'), [id]);
  assert.equal(attr(b, 'QueueEntryID'), [id]);
  const entry = (qe: string) => handleJmf(request(`<JMF xmlns="${JMF_NS}" Version="1.4"><Query ID="Q2" Type="QueueEntryStatus"><QueueEntryDef QueueEntryID="${qe}"/></Query></JMF>`, 'application/vnd.cip4-jmf+xml'), second).then((r) => String(r.body));
  assert.equal(attr(await entry(id), 'ReturnCode'), ['0']);
  assert.equal(attr(await entry('no-such-entry'), 'ReturnCode'), ['105']);
  assert.equal(attr(await entry('../../etc'), 'ReturnCode'), ['105']);
  const report = await handleJmf({ ...request('', ''), method: 'GET', url: `/jmf/reports/${id}/report.json` }, second);
  assert.is(report.status, 200);
  assert.is(JSON.parse(String(report.body)).tool.name, 'jdf-filespec');
});

test('bad input gets a JMF answer, never a crash: not XML (3), not JMF (3), an unknown command (5), no URL (7)', async () => {
  const o = options();
  const code = async (body: string, type = 'application/vnd.cip4-jmf+xml') => {
    const answer = await handleJmf(request(body, type), o);
    assert.is(answer.status, 200);
    return attr(String(answer.body), 'ReturnCode');
  };
  assert.equal(await code('<JMF><Query'), ['3']);
  assert.equal(await code(''), ['3']);
  assert.equal(await code('%PDF-1.4 not xml'), ['3']);
  assert.equal(await code('<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1"/>'), ['3']);
  assert.equal(await code('--x\r\nContent-Type: text/plain\r\n\r\nhello\r\n--x--\r\n', 'multipart/related; boundary=x'), ['3']);
  assert.equal(await code(`<JMF xmlns="${JMF_NS}"><Command ID="c" Type="AbortQueueEntry"/></JMF>`), ['5']);
  assert.equal(await code(`<JMF xmlns="${JMF_NS}"><Command ID="c" Type="SubmitQueueEntry"><QueueSubmissionParams/></Command></JMF>`), ['7']);
  assert.equal(readdirSync(path.join(o.outbox, '.incoming')), [], 'no body is left behind');
});

test('a body over maxBytes: 413 with a JMF answer', async () => {
  const answer = await handleJmf(request('x'.repeat(2000), 'application/vnd.cip4-jmf+xml'), options({ maxBytes: 1000 }));
  assert.is(answer.status, 413);
  assert.match(String(answer.body), /<JMF /);
});

test('a small message at the default --max-bytes (256 MiB) is read into a buffer its size, not the limit\'s', async () => {
  const before = process.memoryUsage().arrayBuffers;
  const answer = await handleJmf(request(`<JMF xmlns="${JMF_NS}"><Query ID="q" Type="KnownMessages"/></JMF>`, 'application/vnd.cip4-jmf+xml'), options({ maxBytes: 256 * 1024 * 1024 }));
  const grown = process.memoryUsage().arrayBuffers - before;
  assert.equal(attr(String(answer.body), 'ReturnCode'), ['0']);
  assert.ok(grown < 64 * 1024 * 1024, `${grown} bytes of buffers`);
});

test('a JMF message over 16 MiB (within --max-bytes) is not held to be read: ReturnCode 3', async () => {
  const big = `<JMF xmlns="${JMF_NS}"><!--${'x'.repeat(17 * 1024 * 1024)}--><Query ID="q" Type="KnownMessages"/></JMF>`;
  const xml = String((await handleJmf(request(big, 'application/vnd.cip4-jmf+xml'), options({ maxBytes: 64 * 1024 * 1024 }))).body);
  assert.equal(attr(xml, 'ReturnCode'), ['3']);
  assert.match(xml, /larger than 16777216 bytes/);
});

test('a refused job\'s ReturnCode: 120 when a referenced file cannot be had, 200 when a reference is written wrong (JDF 1.3 Appendix D)', () => {
  // JDF 1.3 Appendix D: 120 "Cannot access referenced URL", 200 "Invalid Resource parameters".
  assert.is(refusedJobCode(['unsafe-character', 'file-missing']), 120);
  assert.is(refusedJobCode(['cid-no-part']), 120);
  assert.is(refusedJobCode(['unsafe-character', 'backslash']), 200);
});

/** A downstream that holds each request until `release()`: a job stays in flight as long as a test needs. */
async function heldDownstream(): Promise<{ url: string; got: Buffer[]; arrived: Promise<void>; release: () => void; server: Server }> {
  const got: Buffer[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let arrivedNow!: () => void;
  const arrived = new Promise<void>((resolve) => { arrivedNow = resolve; });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push(Buffer.concat(chunks));
      arrivedNow();
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/vnd.cip4-jmf+xml' });
        res.end(`<JMF xmlns="${JMF_NS}" Version="1.4"><Response ID="r" refID="C1" Type="SubmitQueueEntry" ReturnCode="0"/></JMF>`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jmf`, got, arrived, release, server };
}

/** The outbox's queue entries (folders with a status.json). */
const entries = (outbox: string) => readdirSync(outbox).filter((n) => existsSync(path.join(outbox, n, 'status.json')));

test('a repeated submission (the same SenderID and Command ID) is answered with the first answer, not checked or forwarded again', async () => {
  const down = await downstream(0);
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    const first = String((await handleJmf(request(body, contentType), o)).body);
    // A second instance sharing the outbox gets the retry (a load balancer's, after the first answer was lost).
    const again = await handleJmf(request(body, contentType), { ...options({ forward: down.url }), outbox: o.outbox });
    assert.is(again.status, 200);
    assert.equal(attr(String(again.body), 'ReturnCode'), ['0']);
    assert.equal(attr(String(again.body), 'QueueEntryID'), attr(first, 'QueueEntryID'));
    assert.equal(attr(String(again.body), 'refID'), ['C1']);
    assert.is(down.got.length, 1, 'forwarded once');
    assert.is(entries(o.outbox).length, 1, 'one queue entry');
    // Another sender's command with the same ID is its own submission (JDF 1.x: IDs are unique per sender).
    const other = await handleJmf(request(body.toString('latin1').replace('SenderID="MIS"', 'SenderID="MIS-2"'), contentType), o);
    assert.equal(attr(String(other.body), 'ReturnCode'), ['0']);
    assert.is(down.got.length, 2);
    assert.is(entries(o.outbox).length, 2);
  } finally {
    down.server.close();
  }
});

test('a refused submission repeated is refused with the first answer, its Notifications and all, checked once', async () => {
  const { contentType, body } = brokenPackage();
  const o = options();
  const first = String((await handleJmf(request(body, contentType), o)).body);
  const again = String((await handleJmf(request(body, contentType), o)).body);
  assert.equal(attr(again, 'ReturnCode'), ['200']);
  assert.equal(notifications(again), notifications(first));
  assert.is(entries(o.outbox).length, 1);
});

test('a repeat while the first is in flight: 503, Retry-After and ReturnCode 10 (busy); once answered, the first answer', async () => {
  const down = await heldDownstream();
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    const first = handleJmf(request(body, contentType), o);
    await down.arrived;
    const busy = await handleJmf(request(body, contentType), { ...options({ forward: down.url }), outbox: o.outbox });
    assert.is(busy.status, 503);
    assert.ok(Number(busy.headers['retry-after']) >= 1, `Retry-After: ${busy.headers['retry-after']}`);
    assert.equal(attr(String(busy.body), 'ReturnCode'), ['10']);
    assert.match(String(busy.body), /being handled already/);
    down.release();
    const done = String((await first).body);
    assert.equal(attr(done, 'ReturnCode'), ['0']);
    const after = await handleJmf(request(body, contentType), o);
    assert.is(after.status, 200);
    assert.equal(attr(String(after.body), 'QueueEntryID'), attr(done, 'QueueEntryID'));
    assert.is(down.got.length, 1, 'forwarded once');
  } finally {
    down.release();
    down.server.close();
  }
});

test('a claim whose owner is gone (older than claimStaleMs, no answer) is taken over, with the same QueueEntryID', async () => {
  const down = await heldDownstream();
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    // The first instance holds the claim (its forward never answered: as good as dead to the others).
    const first = handleJmf(request(body, contentType), o);
    await down.arrived;
    const taker = handleJmf(request(body, contentType), { ...options({ forward: down.url, claimStaleMs: 0 }), outbox: o.outbox });
    while (down.got.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    down.release();
    const [a, b] = [String((await first).body), await taker];
    assert.is(b.status, 200);
    assert.equal(attr(String(b.body), 'ReturnCode'), ['0']);
    assert.equal(attr(String(b.body), 'QueueEntryID'), attr(a, 'QueueEntryID'));
    assert.is(entries(o.outbox).length, 1, 'one queue entry');
  } finally {
    down.release();
    down.server.close();
  }
});

test('a claim taken over after its owner passed the job on (and died before its answer was kept): finished, not passed on again', async () => {
  const down = await downstream(0);
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    // The dead owner: claimed the sample's submission (SenderID MIS, Command C1), passed it on, noted so, and died.
    const owner = await claimSubmission(o.outbox, 'MIS', 'C1', 120_000);
    assert.is(owner.state, 'mine');
    if (owner.state !== 'mine') return;
    const record = { queueEntryId: owner.queueEntryId, status: 'Completed' as const, returnCode: 0, forwardedAs: 'press-7' };
    await owner.passedOn({ record, answer: { returnCode: 0, entry: record } });
    const taker = await handleJmf(request(body, contentType), { ...o, claimStaleMs: 0 });
    assert.is(taker.status, 200);
    assert.equal(attr(String(taker.body), 'ReturnCode'), ['0']);
    assert.equal(attr(String(taker.body), 'QueueEntryID'), [owner.queueEntryId]);
    assert.equal(attr(String(taker.body), 'jfs:ForwardedQueueEntryID'), ['press-7']);
    assert.is(down.got.length, 0, 'not passed on again');
    assert.is(JSON.parse(readFileSync(path.join(o.outbox, owner.queueEntryId, 'status.json'), 'utf8')).forwardedAs, 'press-7', 'its record finished');
    // And kept: the next repeat gets it without a takeover.
    assert.equal(attr(String((await handleJmf(request(body, contentType), o)).body), 'QueueEntryID'), [owner.queueEntryId]);
    assert.is(down.got.length, 0);
  } finally {
    down.server.close();
  }
});

test('XJMF: a CommandSubmitQueueEntry repeated (the same Header ID and DeviceID) is dropped into the hot folder once', async () => {
  const folder = tempFolder('jmf-ticket-');
  const ticket = path.join(folder, 'job.xjdf');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(ticket, '<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0" JobID="X1" Types="Product"/>');
  const xjmf = `<XJMF xmlns="http://www.CIP4.org/JDFSchema_2_0" Version="2.1"><Header DeviceID="MIS" ID="h1" Time="2026-11-27T00:00:00Z"/><CommandSubmitQueueEntry><Header DeviceID="MIS" ID="X9" Time="2026-11-27T00:00:00Z"/><QueueSubmissionParams URL="${pathToFileURL(ticket).href}"/></CommandSubmitQueueEntry></XJMF>`;
  const o = options({ hotFolder: tempFolder('jmf-hot-') });
  const first = String((await handleJmf(request(xjmf, 'application/vnd.cip4-xjmf+xml'), o)).body);
  const again = String((await handleJmf(request(xjmf, 'application/vnd.cip4-xjmf+xml'), o)).body);
  assert.match(first, /<ResponseSubmitQueueEntry ReturnCode="0"/);
  assert.match(again, /<ResponseSubmitQueueEntry ReturnCode="0"/);
  assert.equal(attr(again, 'QueueEntryID'), attr(first, 'QueueEntryID'));
  assert.is(readdirSync(o.hotFolder!).length, 1);
  // Another sender's X9 is its own.
  await handleJmf(request(xjmf.replaceAll('DeviceID="MIS"', 'DeviceID="MIS-2"'), 'application/vnd.cip4-xjmf+xml'), o);
  assert.is(readdirSync(o.hotFolder!).length, 2);
});

test('a message without an ID is handled each time (nothing names it as the same submission)', async () => {
  const down = await downstream(0);
  try {
    const { contentType, body } = sample();
    const o = options({ forward: down.url });
    const noId = body.toString('latin1').replace('<Command ID="C1"', '<Command');
    await handleJmf(request(noId, contentType), o);
    await handleJmf(request(noId, contentType), o);
    assert.is(down.got.length, 2);
  } finally {
    down.server.close();
  }
});

/** A ticket server: /ticket.jdf is a clean JDF, /away redirects to `away` (set later); counts what is asked. */
async function ticketServer(): Promise<{ base: string; asked: string[]; away: { to: string }; server: Server }> {
  const asked: string[] = [];
  const away = { to: '' };
  const server = createServer((req, res) => {
    asked.push(String(req.url));
    if (req.url === '/away') {
      res.writeHead(302, { location: away.to });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.cip4-jdf+xml' });
    res.end(`<JDF xmlns="${JMF_NS}" ID="n1" Type="Product" JobID="H1" Version="1.4" Status="Waiting"/>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, asked, away, server };
}

const submitUrl = (url: string, id: string) => `<JMF xmlns="${JMF_NS}" SenderID="MIS" Version="1.4"><Command ID="${id}" Type="SubmitQueueEntry"><QueueSubmissionParams URL="${url}"/></Command></JMF>`;

test('an http: ticket is not fetched unless its URL is under a fetchFrom prefix: ReturnCode 120 and why, nothing asked of the address', async () => {
  const tickets = await ticketServer();
  try {
    const xml = String((await handleJmf(request(submitUrl(`${tickets.base}ticket.jdf`, 'F1'), 'application/vnd.cip4-jmf+xml'), options())).body);
    assert.equal(attr(xml, 'ReturnCode'), ['120']);
    assert.match(xml, /is not fetched: this server fetches no http\(s\) tickets/);
    // A prefix that is a different host (its name a prefix of the other's, or a user name before it) is not a match.
    const other = options({ fetchFrom: ['http://127.0.0.1/', 'http://127.0.0.10:1/'] });
    const refused = String((await handleJmf(request(submitUrl(`${tickets.base}ticket.jdf`, 'F2'), 'application/vnd.cip4-jmf+xml'), other)).body);
    assert.equal(attr(refused, 'ReturnCode'), ['120']);
    assert.match(refused, /is not under http:\/\/127\.0\.0\.1\/ or http:\/\/127\.0\.0\.10:1\//);
    const userinfo = `${tickets.base.replace('http://', 'http://127.0.0.1:1@')}ticket.jdf`;
    assert.equal(attr(String((await handleJmf(request(submitUrl(userinfo, 'F3'), 'application/vnd.cip4-jmf+xml'), options({ fetchFrom: ['http://127.0.0.1:1/'] }))).body), 'ReturnCode'), ['120']);
    assert.equal(tickets.asked, [], 'nothing was fetched');
    const allowed = String((await handleJmf(request(submitUrl(`${tickets.base}ticket.jdf`, 'F4'), 'application/vnd.cip4-jmf+xml'), options({ fetchFrom: [tickets.base] }))).body);
    assert.equal(attr(allowed, 'ReturnCode'), ['0']);
    assert.equal(tickets.asked, ['/ticket.jdf']);
  } finally {
    tickets.server.close();
  }
});

test('a redirect from an allowed prefix to an address outside them is not followed: ReturnCode 120', async () => {
  const tickets = await ticketServer();
  const inside = await ticketServer();
  try {
    tickets.away.to = `${inside.base}ticket.jdf`;
    const xml = String((await handleJmf(request(submitUrl(`${tickets.base}away`, 'R1'), 'application/vnd.cip4-jmf+xml'), options({ fetchFrom: [tickets.base] }))).body);
    assert.equal(attr(xml, 'ReturnCode'), ['120']);
    assert.match(xml, /redirects to http:\/\/127\.0\.0\.1:\d+\/ticket\.jdf; .* is not fetched/);
    assert.equal(inside.asked, [], 'the address it redirects to is never asked');
    // Within the prefixes, a redirect is followed.
    tickets.away.to = `${tickets.base}ticket.jdf`;
    const followed = String((await handleJmf(request(submitUrl(`${tickets.base}away`, 'R2'), 'application/vnd.cip4-jmf+xml'), options({ fetchFrom: [tickets.base] }))).body);
    assert.equal(attr(followed, 'ReturnCode'), ['0']);
  } finally {
    tickets.server.close();
    inside.server.close();
  }
});

test.run();
