// The listener behind `serve` (src/node/serve/server.ts) with a stand-in handler: its limits under hostile
// clients (a body too large, declared or streamed; a slow client; a flood of header bytes; too many at once),
// authentication, TLS, /healthz /readyz /metrics (read by an independent Python parser of the exposition format),
// the access log and a graceful shutdown. curl and Python's http.client are the clients where how a real client
// sees the answer matters (a reset instead of a 413 is what a naive server gives them).
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeOnSignals, ServeConfigError, startServer, type RunningServer, type ServerOptions } from '../src/node/serve/server.js';
import type { HttpHandler, HttpRequest } from '../src/node/serve/types.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

test.after(removeTempFolders);

const metricsCheck = fileURLToPath(new URL('test/serve_metrics_check.py', projectRoot));

/** Runs a program (curl, python3) without blocking this process, where the server runs. */
function run(file: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { maxBuffer: 16 * 1024 ** 2 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** The stand-in: reads the whole body, answers 200 with its length, a job accepted unless the body says "refuse". */
const standIn: HttpHandler = async (request) => {
  let bytes = 0;
  const parts: Buffer[] = [];
  for await (const chunk of request.body) {
    bytes += chunk.length;
    if (parts.length < 4) parts.push(Buffer.from(chunk));
  }
  const refused = Buffer.concat(parts).toString('utf8').startsWith('refuse');
  return {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `${bytes} bytes${request.user ? ` from ${request.user}` : ''}\n`,
    job: { accepted: !refused, returnCode: refused ? 6 : 0 },
  };
};

async function withServer(options: Partial<ServerOptions>, handler: HttpHandler, body: (server: RunningServer, base: string) => Promise<void>): Promise<void> {
  const server = await startServer({ host: '127.0.0.1', port: 0, ...options }, handler);
  try {
    await body(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${server.port}`);
  } finally {
    await server.close(0);
  }
}

/** curl's status code and body: -w puts the code on a last line of its own. */
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const r = await run('curl', ['-sS', '-w', '\n%{http_code}', ...args]);
  const at = r.stdout.lastIndexOf('\n');
  return { status: Number(r.stdout.slice(at + 1)), body: r.stdout.slice(0, at).replace(/\n$/, '') };
}

/** Python's http.client posts body bytes (a declared Content-Length, or chunked) and prints status and body. */
async function pythonPost(port: number, size: number, chunked: boolean): Promise<string> {
  const script = `
import http.client, sys
c = http.client.HTTPConnection('127.0.0.1', ${port}, timeout=30)
body = (b'x' * 1000 for _ in range(${size / 1000})) if ${chunked ? 'True' : 'False'} else b'x' * ${size}
try:
    c.request('POST', '/', body=body, encode_chunked=${chunked ? 'True' : 'False'})
    r = c.getresponse()
    print(r.status, r.read().decode().strip())
except Exception as e:
    print('error', type(e).__name__)
`;
  return (await run('python3', ['-c', script])).stdout.trim();
}

/** Writes raw bytes on a connection and resolves with everything the server sends until it closes. */
function raw(port: number, send: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => send(socket));
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(got).toString('latin1')));
  });
}

test('a body over --max-body is refused 413 by curl and Python, declared or streamed, and the handler never holds more than the limit', async () => {
  let most = 0;
  const counting: HttpHandler = async (request) => {
    let bytes = 0;
    try {
      for await (const chunk of request.body) {
        bytes += chunk.length;
        most = Math.max(most, bytes);
      }
    } catch {
      return { status: 200, headers: {}, body: 'the handler saw the limit\n' };
    }
    return { status: 200, headers: {}, body: `${bytes}\n` };
  };
  const folder = tempFolder('jfs-serve-body-');
  const big = path.join(folder, 'big');
  writeFileSync(big, Buffer.alloc(3_000_000, 0x61));
  await withServer({ maxBodyBytes: 100_000 }, counting, async (server, base) => {
    const small = await curl(['--data-binary', 'abc', base]);
    assert.equal(small, { status: 200, body: '3' });
    for (const extra of [[], ['-H', 'Expect:'], ['-H', 'Transfer-Encoding: chunked'], ['-H', 'Transfer-Encoding: chunked', '-H', 'Expect:']]) {
      const r = await curl(['--data-binary', `@${big}`, ...extra, base]);
      assert.is(r.status, 413, extra.join(' '));
      assert.match(r.body, 'larger than 100000 bytes');
    }
    // Python sends the whole body before it reads: it still gets the 413, not a reset.
    assert.is(await pythonPost(server.port, 3_000_000, false), '413 The request body is larger than 100000 bytes.');
    assert.is(await pythonPost(server.port, 3_000_000, true), '413 The request body is larger than 100000 bytes.');
    assert.ok(most <= 100_000, `the handler was given ${most} bytes`);
  });
});

test('a handler that answers without reading the body: the answer reaches Python\'s http.client (no reset), the connection closes', async () => {
  await withServer({ maxBodyBytes: 10_000_000 }, async () => ({ status: 202, headers: {}, body: 'not read' }), async (server) => {
    assert.is(await pythonPost(server.port, 3_000_000, false), '202 not read');
    assert.is(await pythonPost(server.port, 3_000_000, true), '202 not read');
  });
});

test('a bounded hostile burst at once (bodies too large, slow clients, header floods, more than the limit at once): each gets a clean answer, and honest clients beside them are served', async () => {
  let handled = 0;
  const gentle: HttpHandler = async (request) => {
    for await (const _chunk of request.body) {
      // read it all
    }
    await new Promise((r) => setTimeout(r, 30));
    handled += 1;
    return { status: 200, headers: {}, body: 'ok\n' };
  };
  await withServer({ maxBodyBytes: 50_000, maxHeaderBytes: 4096, maxConcurrent: 8, requestTimeoutMs: 1_000, headersTimeoutMs: 500 }, gentle, async (server) => {
    const status = (text: string) => /^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 'none';
    const big = (s: Socket) => {
      s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n');
      s.write(Buffer.alloc(200_000, 0x61));
    };
    const slow = (s: Socket) => s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhal');
    const flood = (s: Socket) => s.write(`GET / HTTP/1.1\r\nHost: x\r\n${'X-F: aaaaaaaaaaaaaaaaaaaa\r\n'.repeat(400)}\r\n`);
    const honest = (s: Socket) => s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    const kinds = [...Array(10).fill(['big', big]), ...Array(5).fill(['slow', slow]), ...Array(10).fill(['flood', flood]), ...Array(6).fill(['honest', honest])] as Array<[string, (s: Socket) => void]>;
    const answers = await Promise.all(kinds.map(async ([kind, send]) => [kind, status(await raw(server.port, send))] as const));
    const seen: Record<string, Record<string, number>> = {};
    for (const [kind, code] of answers) (seen[kind] ??= {})[code] = (seen[kind][code] ?? 0) + 1;
    assert.equal(seen.big, { 413: 10 });
    assert.equal(seen.slow, { 408: 5 });
    assert.equal(seen.flood, { 431: 10 });
    // Slow clients hold 5 of the 8 places until their time is up: an honest client may be told to come back.
    assert.is((seen.honest?.['200'] ?? 0) + (seen.honest?.['503'] ?? 0), 6, JSON.stringify(seen.honest));
    assert.is(handled, seen.honest?.['200'] ?? 0);
    assert.is(server.metrics.inFlight, 0);
    assert.equal(await curl(['--data-binary', 'after', `http://127.0.0.1:${server.port}/`]), { status: 200, body: 'ok' });
  });
});

test('a client too slow with its body gets 408 and the handler\'s signal aborts; one too slow with its head is cut off', async () => {
  let aborted = false;
  const waiting: HttpHandler = async (request) => {
    request.signal.addEventListener('abort', () => {
      aborted = true;
    });
    for await (const _chunk of request.body) {
      // read what comes
    }
    return { status: 200, headers: {}, body: 'ok\n' };
  };
  await withServer({ requestTimeoutMs: 300, headersTimeoutMs: 200 }, waiting, async (server) => {
    // The head, and 5 bytes of the 100 it promised; then nothing.
    const body = await raw(server.port, (s) => s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhello'));
    assert.match(body, /^HTTP\/1\.1 408 /);
    assert.match(body, /connection: close/i);
    assert.ok(aborted, 'the handler was told');
    // Half a head, then nothing: Node answers 408 itself and closes.
    const head = await raw(server.port, (s) => s.write('POST / HTTP/1.1\r\nHost: x\r\n'));
    assert.match(head, /^HTTP\/1\.1 408 /);
    // A connection that sends nothing at all does not stay open either.
    assert.match(await raw(server.port, () => undefined), /^HTTP\/1\.1 408 /);
  });
});

test('a handler slower than --request-timeout: 503 with Retry-After, and its signal aborts', async () => {
  let aborted = false;
  const slow: HttpHandler = (request) => new Promise((resolve) => {
    request.signal.addEventListener('abort', () => {
      aborted = true;
      resolve({ status: 200, headers: {}, body: 'too late\n' });
    });
  });
  await withServer({ requestTimeoutMs: 200, retryAfterSeconds: 7 }, slow, async (_server, base) => {
    const r = await run('curl', ['-sS', '-i', base]);
    assert.match(r.stdout, /^HTTP\/1\.1 503 /);
    assert.match(r.stdout, /retry-after: 7/i);
    assert.ok(aborted);
  });
});

test('a head over --max-header-bytes gets 431 (curl), and the handler is not called', async () => {
  let called = 0;
  await withServer({ maxHeaderBytes: 4096 }, async () => {
    called += 1;
    return { status: 200, headers: {}, body: 'ok\n' };
  }, async (_server, base) => {
    const flood = Array.from({ length: 100 }, (_, i) => ['-H', `X-Flood-${i}: ${'a'.repeat(60)}`]).flat();
    assert.is((await curl([...flood, base])).status, 431);
    assert.is((await curl(['-H', `X-One: ${'b'.repeat(5000)}`, base])).status, 431);
    assert.is(called, 0);
    assert.is((await curl([base])).status, 200);
  });
});

test('beyond --max-concurrent: 503 with Retry-After; once one finishes, the next is taken', async () => {
  const gates: Array<() => void> = [];
  const held: HttpHandler = () => new Promise((resolve) => gates.push(() => resolve({ status: 200, headers: {}, body: 'done\n' })));
  await withServer({ maxConcurrent: 2, retryAfterSeconds: 3 }, held, async (server, base) => {
    const first = [curl([base]), curl([base])];
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 20));
    const third = await run('curl', ['-sS', '-i', base]);
    assert.match(third.stdout, /^HTTP\/1\.1 503 /);
    assert.match(third.stdout, /retry-after: 3/i);
    assert.is(server.metrics.inFlight, 2);
    // Whichever of the two the handler took first is let go (curl's two processes race to connect).
    gates.shift()!();
    const done = await Promise.race(first.map((answer, i) => answer.then((r) => ({ i, status: r.status }))));
    assert.is(done.status, 200);
    const fourth = curl([base]);
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 20));
    gates.splice(0).forEach((open) => open());
    assert.is((await first[1 - done.i]!).status, 200);
    assert.is((await fourth).status, 200);
  });
});

test('the server\'s refusals are worded by options.refusal (the JMF side answers in JMF)', async () => {
  const refusal = (status: number, reason: string) => ({ status, headers: { 'content-type': 'application/vnd.cip4-jmf+xml' }, body: `<JMF><Response ReturnCode="${status}">${reason}</Response></JMF>` });
  await withServer({ maxBodyBytes: 10, refusal }, standIn, async (_server, base) => {
    const r = await run('curl', ['-sS', '-i', '--data-binary', 'more than ten bytes', base]);
    assert.match(r.stdout, /^HTTP\/1\.1 413 /);
    assert.match(r.stdout, /content-type: application\/vnd\.cip4-jmf\+xml/i);
    assert.match(r.stdout, '<Response ReturnCode="413">The request body is larger than 10 bytes.</Response>');
  });
});

test('Basic and Bearer authentication: 401 with challenges without or with wrong credentials; the user reaches the handler; probes stay open unless authOps', async () => {
  const credentials = { basic: [{ user: 'mis', password: 'pä:ss' }], bearer: [{ name: 'press', token: 'tok-123' }] };
  let user: string | undefined;
  let authorization: string | undefined;
  const who: HttpHandler = async (request: HttpRequest) => {
    user = request.user;
    authorization = request.headers.authorization;
    return standIn(request);
  };
  await withServer({ credentials }, who, async (_server, base) => {
    const none = await run('curl', ['-sS', '-i', base]);
    assert.match(none.stdout, /^HTTP\/1\.1 401 /);
    assert.match(none.stdout, /www-authenticate: Basic realm="jdf-filespec", charset="UTF-8", Bearer realm="jdf-filespec"/i);
    assert.is((await curl(['-u', 'mis:wrong', base])).status, 401);
    assert.is((await curl(['-u', 'other:pä:ss', base])).status, 401);
    assert.is((await curl(['-H', 'Authorization: Bearer tok-124', base])).status, 401);
    assert.equal(await curl(['-u', 'mis:pä:ss', base]), { status: 200, body: '0 bytes from mis' });
    assert.equal(await curl(['-H', 'Authorization: Bearer tok-123', base]), { status: 200, body: '0 bytes from press' });
    assert.is(user, 'press');
    assert.is(authorization, undefined, 'the handler never sees the token');
    assert.is((await curl([`${base}/healthz`])).status, 200);
    assert.is((await curl([`${base}/metrics`])).status, 200);
  });
  await withServer({ credentials, authOps: true }, who, async (_server, base) => {
    assert.is((await curl([`${base}/metrics`])).status, 401);
    assert.is((await curl(['-u', 'mis:pä:ss', `${base}/readyz`])).status, 200);
  });
});

test('TLS from a key and certificate made for the test: curl and Python verify it against the certificate; plain HTTP is not answered', async () => {
  const folder = tempFolder('jfs-serve-tls-');
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  const made = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert]);
  assert.is(made.code, 0, made.stderr);
  await withServer({ tls: { key: readFileSync(key), cert: readFileSync(cert) } }, standIn, async (server, base) => {
    assert.equal(await curl(['--cacert', cert, '--data-binary', 'abcd', base]), { status: 200, body: '4 bytes' });
    const py = await run('python3', ['-c', `
import http.client, ssl
c = http.client.HTTPSConnection('127.0.0.1', ${server.port}, context=ssl.create_default_context(cafile='${cert}'))
c.request('GET', '/healthz'); r = c.getresponse(); print(r.status, r.read().decode().strip())`]);
    assert.is(py.stdout.trim(), '200 ok', py.stderr);
    // An unverified certificate is refused by a client that checks (the chain is ours, not the system's).
    assert.is.not((await run('curl', ['-sS', `${base}/healthz`])).code, 0);
    assert.is.not((await run('curl', ['-sS', `http://127.0.0.1:${server.port}/healthz`])).stdout, 'ok\n');
    // And node's own client, to be sure the server is HTTPS through and through.
    const status = await new Promise<number>((resolve) => httpsRequest({ host: '127.0.0.1', port: server.port, path: '/readyz', ca: readFileSync(cert) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).end());
    assert.is(status, 200);
  });
});

test('a non-loopback address with neither credentials nor TLS is refused with a ServeConfigError unless insecure', async () => {
  for (const host of ['0.0.0.0', '::', '192.0.2.1', 'example.org']) {
    const error = await startServer({ host, port: 0 }, standIn).then(() => undefined, (e: unknown) => e);
    assert.instance(error, ServeConfigError, host);
    assert.is((error as ServeConfigError).code, 'insecure');
  }
  const open = await startServer({ host: '0.0.0.0', port: 0, insecure: true }, standIn);
  await open.close(0);
  const authed = await startServer({ host: '0.0.0.0', port: 0, credentials: { bearer: [{ name: 'a', token: 'b' }] } }, standIn);
  await authed.close(0);
});

test('/healthz, /readyz and /metrics: the metrics parse by the exposition format and count what was sent', async () => {
  await withServer({ maxBodyBytes: 50 }, standIn, async (_server, base) => {
    assert.equal(await curl([`${base}/healthz`]), { status: 200, body: 'ok' });
    assert.equal(await curl([`${base}/readyz`]), { status: 200, body: 'ready' });
    await curl(['--data-binary', 'a job', base]);
    await curl(['--data-binary', 'another', base]);
    await curl(['--data-binary', 'refuse this one', base]);
    await curl(['--data-binary', 'x'.repeat(60), base]);
    await curl(['-X', 'PROPFIND', base]);
    const r = await run('curl', ['-sS', '-D', '-', `${base}/metrics`]);
    assert.match(r.stdout, /content-type: text\/plain; version=0\.0\.4/i);
    const text = r.stdout.slice(r.stdout.indexOf('\r\n\r\n') + 4);
    const parsed = await run('python3', [metricsCheck], text);
    assert.is(parsed.code, 0, parsed.stderr);
    const { types, samples } = JSON.parse(parsed.stdout) as { types: Record<string, string>; samples: Array<[string, Record<string, string>, number]> };
    assert.equal(types, {
      jdf_filespec_http_requests_total: 'counter',
      jdf_filespec_http_request_duration_seconds: 'histogram',
      jdf_filespec_jobs_total: 'counter',
      jdf_filespec_http_requests_in_flight: 'gauge',
    });
    const value = (name: string, labels: Record<string, string>) => samples.find(([n, l]) => n === name && JSON.stringify(l) === JSON.stringify(labels))?.[2];
    assert.is(value('jdf_filespec_http_requests_total', { method: 'GET', code: '200' }), 2);
    assert.is(value('jdf_filespec_http_requests_total', { method: 'POST', code: '200' }), 3);
    assert.is(value('jdf_filespec_http_requests_total', { method: 'POST', code: '413' }), 1);
    // An unknown method is counted as "other": a client cannot make new series.
    assert.is(value('jdf_filespec_http_requests_total', { method: 'other', code: '200' }), 1);
    assert.is(value('jdf_filespec_jobs_total', { outcome: 'accepted', return_code: '0' }), 3);
    assert.is(value('jdf_filespec_jobs_total', { outcome: 'refused', return_code: '6' }), 1);
    assert.is(value('jdf_filespec_http_request_duration_seconds_count', {}), 7);
    assert.is(value('jdf_filespec_http_requests_in_flight', {}), 0);
  });
});

test('the access log: one JSON line per request with time, method, path (no query), status, bytes, ms, user and the job', async () => {
  const log = new PassThrough();
  const lines: string[] = [];
  log.on('data', (d: Buffer) => lines.push(...d.toString('utf8').split('\n').filter(Boolean)));
  // What curl says it received is what each line's bytes must say.
  const sizes: number[] = [];
  const received = async (args: string[]) => sizes.push(Number((await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{size_download}', ...args])).stdout));
  await withServer({ accessLog: log, maxBodyBytes: 5, credentials: { basic: [{ user: 'mis', password: 'pw' }] } }, standIn, async (_server, base) => {
    await received(['-u', 'mis:pw', '--data-binary', 'abc', `${base}/jmf?secret=1`]);
    await received(['-u', 'mis:pw', '--data-binary', 'abcdefgh', `${base}/jmf`]);
    await received([`${base}/jmf`]);
  });
  const entries = lines.map((line) => JSON.parse(line));
  assert.is(entries.length, 3);
  for (const e of entries) {
    assert.ok(!Number.isNaN(Date.parse(e.time)));
    assert.is(typeof e.ms, 'number');
  }
  const strip = ({ time: _t, ms: _m, ...rest }: any) => rest;
  assert.equal(strip(entries[0]), { method: 'POST', path: '/jmf', status: 200, bytes: sizes[0], user: 'mis', job: { accepted: true, returnCode: 0 } });
  assert.equal(strip(entries[1]), { method: 'POST', path: '/jmf', status: 413, bytes: sizes[1], user: 'mis', refused: 'The request body is larger than 5 bytes.' });
  assert.equal(strip(entries[2]), { method: 'GET', path: '/jmf', status: 401, bytes: sizes[2], refused: 'Authentication is required.' });
});

/** A connection kept open: send() writes a request and resolves with what comes back, until a pause. */
function keepAlive(port: number): Promise<{ send: (text: string) => Promise<string>; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    let waiter: (() => void) | undefined;
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (/\r\n\r\n/.test(got) && /content-length: (\d+)/i.test(got)) {
        const length = Number(/content-length: (\d+)/i.exec(got)![1]);
        if (got.length >= got.indexOf('\r\n\r\n') + 4 + length) waiter?.();
      }
    });
    socket.on('error', () => undefined);
    // A connection closed with no answer resolves what waits with what came (a failure to read, not a hang).
    const closed = new Promise<void>((r) => socket.on('close', () => {
      waiter?.();
      r();
    }));
    socket.on('connect', () => resolve({
      send: (text) => new Promise((done) => {
        got = '';
        waiter = () => done(got);
        socket.write(text);
      }),
      closed,
    }));
  });
}

test('graceful close: the request in flight finishes (Connection: close), new requests on open connections get 503 Connection: close, /readyz 503, new connections are refused', async () => {
  const releases: Array<() => void> = [];
  const held: HttpHandler = async (request) => {
    for await (const _chunk of request.body) {
      // read it all
    }
    await new Promise<void>((resolve) => releases.push(resolve));
    return { status: 200, headers: {}, body: `finished ${request.url}\n` };
  };
  const server = await startServer({ host: '127.0.0.1', port: 0, retryAfterSeconds: 4 }, held);
  // Two clients with a connection kept alive (idle now), and one with a request in flight.
  const [idle1, idle2] = await Promise.all([keepAlive(server.port), keepAlive(server.port)]);
  assert.match(await idle1.send('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 200 [^]*ready/);
  assert.match(await idle2.send('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 200 /);
  const busy = await keepAlive(server.port);
  const inFlight = busy.send('POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na');
  while (releases.length < 1) await new Promise((r) => setTimeout(r, 20));
  const closing = server.close(10_000);
  const refusedNew = await new Promise<string>((resolve) => {
    const s = connect(server.port, '127.0.0.1');
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    s.on('connect', () => {
      s.destroy();
      resolve('connected');
    });
  });
  assert.is(refusedNew, 'ECONNREFUSED');
  const ready = await idle1.send('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.match(ready, /^HTTP\/1\.1 503 [^]*connection: close[^]*shutting down/i);
  const late = await idle2.send('POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nb');
  assert.match(late, /^HTTP\/1\.1 503 [^]*retry-after: 4[^]*connection: close[^]*shutting down/i);
  await Promise.all([idle1.closed, idle2.closed]);
  assert.is(releases.length, 1, 'the handler saw only the request in flight');
  releases[0]!();
  const finished = await inFlight;
  assert.match(finished, /^HTTP\/1\.1 200 [^]*connection: close[^]*finished \/a/i);
  await closing;
  await busy.closed;
});

/** A handler that answers only once its request's signal aborts; `seen` says whether it started and was aborted. */
function untilAborted(): { seen: { started: boolean; aborted: boolean }; never: HttpHandler } {
  const seen = { started: false, aborted: false };
  const never: HttpHandler = (request) => new Promise((resolve) => {
    seen.started = true;
    request.signal.addEventListener('abort', () => {
      seen.aborted = true;
      resolve({ status: 200, headers: {}, body: 'late\n' });
    });
  });
  return { seen, never };
}

test('graceful close: past the grace period what is still running is cut, and its signal aborts', async () => {
  const { seen, never } = untilAborted();
  const server = await startServer({ host: '127.0.0.1', port: 0 }, never);
  const answer = curl([`http://127.0.0.1:${server.port}/`]);
  while (!seen.started) await new Promise((r) => setTimeout(r, 20));
  await server.close(100);
  await server.closed;
  assert.is((await answer).status, 0);
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(seen.aborted);
});

test('closeOnSignals: a second signal cuts the grace period short; the request still running is aborted', async () => {
  const { seen, never } = untilAborted();
  const server = await startServer({ host: '127.0.0.1', port: 0 }, never);
  const said: string[] = [];
  closeOnSignals(server, 60_000, (signal) => said.push(signal));
  const answer = curl([`http://127.0.0.1:${server.port}/`]);
  while (!seen.started) await new Promise((r) => setTimeout(r, 20));
  process.emit('SIGINT');
  process.emit('SIGTERM');
  await server.closed;
  assert.is((await answer).status, 0);
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(seen.aborted);
  assert.equal(said, ['SIGINT', 'SIGTERM']);
  assert.is(process.listenerCount('SIGTERM') + process.listenerCount('SIGINT'), 0);
});

test('SIGTERM (closeOnSignals, as the CLI installs it): the request in flight finishes, then the process ends by itself with code 0', async () => {
  const server = new URL('../src/node/serve/server.js', import.meta.url).href;
  const script = `
    import { startServer, closeOnSignals } from ${JSON.stringify(server)};
    let release;
    const running = await startServer({ host: '127.0.0.1', port: 0 }, async (request) => {
      for await (const _ of request.body);
      process.stdout.write('started\\n');
      await new Promise((r) => { release = r; });
      return { status: 200, headers: {}, body: 'finished\\n' };
    });
    closeOnSignals(running, 10000, (signal) => { process.stdout.write(signal + '\\n'); setTimeout(() => release(), 200); });
    process.stdout.write(running.port + '\\n');
    await running.closed;
    process.stdout.write('closed\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waitFor = (text: string) => new Promise<void>((resolve) => {
    const check = () => {
      if (out.includes(text)) resolve();
      else child.stdout.once('data', check);
    };
    check();
  });
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitFor('\n');
    const port = Number(out.split('\n')[0]);
    const answer = curl([`http://127.0.0.1:${port}/`]);
    await waitFor('started');
    child.kill('SIGTERM');
    assert.equal(await answer, { status: 200, body: 'finished' });
    assert.is(await exited, 0);
    assert.match(out, /started\nSIGTERM\nclosed\n$/);
  } finally {
    child.kill('SIGKILL');
  }
});

test.run();
