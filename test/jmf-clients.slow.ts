// Real clients against a running `jdf-filespec serve`: curl posting a bare JMF and the bundled MIME package, and
// a sender written with Python's standard library (test/jmf_client.py: email, http.client, expat). A stand-in
// downstream device on loopback receives what is forwarded. Expected values: the JDF spec's ReturnCodes, the
// sample's own bytes, and where the Python fixture puts its broken URL. Not in `npm test` (it starts a server
// process): `npm run test:jmf`. Skipped, with a note, when curl or python3 is absent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0;
const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasCurl) console.log('  note: curl is absent; the curl cases are skipped');
if (!hasPython) console.log('  note: python3 is absent; the Python client is skipped');

const folder = mkdtempSync(path.join(tmpdir(), 'jmf-clients-'));
const received: Array<{ type: string; body: Buffer }> = [];
let downstream: Server;
let serve: ChildProcess;
let port = 0;

test.before(async () => {
  downstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/vnd.cip4-jmf+xml' });
      res.end('<JMF xmlns="http://www.CIP4.org/JDFSchema_1_1" SenderID="press" Version="1.4"><Response ID="r" Type="SubmitQueueEntry" ReturnCode="0"/></JMF>');
    });
  });
  await new Promise<void>((resolve) => downstream.listen(0, '127.0.0.1', resolve));
  const down = downstream.address();
  const forward = `http://127.0.0.1:${typeof down === 'object' && down ? down.port : 0}/jmf`;
  writeFileSync(path.join(folder, 'shop.json'), JSON.stringify({ serve: { outbox: 'outbox', forward } }), { mode: 0o600 });
  const cli = fileURLToPath(new URL('dist/bin/jdf-filespec.js', projectRoot));
  serve = spawn(process.execPath, [cli, 'serve', '--config', path.join(folder, 'shop.json'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve, reject) => {
    let text = '';
    serve.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (m) resolve(Number(m[1]));
    });
    serve.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${text}`)));
  });
});

test.after(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.on('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  await new Promise<void>((resolve) => downstream.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

/** A program run without blocking this process (the stand-in downstream answers from it meanwhile). */
function run(command: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function curl(contentType: string, file: string): Promise<{ status: string; body: string }> {
  const r = await run('curl', ['-sS', '--noproxy', '*', '-o', '-', '-w', '\n%{http_code}', '-H', `Content-Type: ${contentType}`, '--data-binary', `@${file}`, `http://127.0.0.1:${port}/jmf`]);
  const at = r.stdout.lastIndexOf('\n');
  return { body: r.stdout.slice(0, at), status: r.stdout.slice(at + 1) };
}

const codes = (xml: string) => [...xml.matchAll(/\sReturnCode="(\d+)"/g)].map((m) => Number(m[1]));

test('curl: a bare JMF KnownMessages query gets a JMF Response, ReturnCode 0', async () => {
  if (!hasCurl) return;
  const file = path.join(folder, 'known.jmf');
  writeFileSync(file, '<?xml version="1.0"?><JMF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.4"><Query ID="K1" Type="KnownMessages"/></JMF>');
  const { status, body } = await curl('application/vnd.cip4-jmf+xml', file);
  assert.is(status, '200');
  assert.equal(codes(body), [0]);
  assert.match(body, /<MessageService Type="SubmitQueueEntry" Command="true"\/>/);
});

test('curl: the bundled MIME package is accepted (ReturnCode 0) and forwarded exactly as curl sent it', async () => {
  if (!hasCurl) return;
  const raw = readFileSync(new URL('samples/submit-queue-entry.mjm', projectRoot));
  const split = raw.indexOf('\r\n\r\n');
  const contentType = /Content-Type: ([^\r\n]+)/.exec(raw.subarray(0, split).toString('latin1'))![1]!;
  const file = path.join(folder, 'body.bin');
  writeFileSync(file, raw.subarray(split + 4));
  const before = received.length;
  const { status, body } = await curl(contentType, file);
  assert.is(status, '200');
  assert.equal(codes(body), [0]);
  assert.is(received.length, before + 1);
  assert.is(received[before]!.type, contentType);
  assert.ok(received[before]!.body.equals(raw.subarray(split + 4)));
});

test('Python (email, http.client, expat): a clean package accepted (0), a broken FileSpec refused (6) at its line and column', async () => {
  if (!hasPython) return;
  const r = await run('python3', [fileURLToPath(new URL('test/jmf_client.py', projectRoot)), '127.0.0.1', String(port)]);
  assert.is(r.status, 0, r.stdout + r.stderr);
});

test.run();
