/* global fetch -- Node 20 has it; the lint config lists the globals of older scripts. */
// npm run test:haproxy: serve scales out, shown with a real load balancer. Two `jdf-filespec serve` instances
// (dist/bin/jdf-filespec.js) behind HAProxy (Debian's package; .ci/run installs it when missing) on loopback share
// one outbox folder and one downstream (one config); a bounded burst of JMF submissions (the MIME package
// samples/submit-queue-entry.mjm, each with its own Command ID) goes through HAProxy, one instance is killed
// (SIGKILL) wherever it is in the middle of it, and then: every job was answered (a final answer each,
// ReturnCode 0), recorded once in the outbox (one queue entry), and passed on to the downstream once. The client
// resubmits what got no final answer (502/503 from HAProxy, serve's 503 "busy" while another instance holds the
// job, a reset), as an MIS does; HAProxy retries a failed connection or a 503 on the other instance. serve takes a
// submission (SenderID and Command ID) once: a repeat gets the first answer, or 503 while the first is in flight,
// and a claim the killed instance left without an answer is taken over once it is older than --request-timeout.
// What is promised (README, "Once per submission") and checked: a job is forwarded more than once only when its
// claim was taken over (the killed instance died with its forward on the wire: sent, the answer not yet noted);
// never lost.
// Ends with "N passed, N failed (haproxy)"; exit code 0 when all checks pass.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const JOBS = Number(process.env.HAPROXY_JOBS ?? 200);
const CLIENTS = Number(process.env.HAPROXY_CLIENTS ?? 8);
/** The kill comes after this many jobs have been answered. */
const KILL_AFTER = Math.floor(JOBS / 3);

/** A claim with no answer older than this (serve's --request-timeout) is taken over: within the client's retries. */
const REQUEST_TIMEOUT = '4s';

/** One instance: the real serve, its outbox and downstream from the shared config. */
function instanceCommand({ port, config, accessLog }) {
  return [process.execPath, [path.join(here, '..', '..', 'dist', 'bin', 'jdf-filespec.js'), 'serve', '--config', config, '--port', String(port), '--access-log', accessLog, '--request-timeout', REQUEST_TIMEOUT]];
}

const results = [];
const check = (ok, what) => {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

/** A free loopback port: asked of the kernel, then given back. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a process and resolves once a line of its output matches ready. */
function start(name, file, args, ready) {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const up = new Promise((resolve, reject) => {
    const seen = (d) => {
      out += d.toString();
      if (ready.test(out)) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then((how) => reject(new Error(`${name} ended (${how}) before it was ready:\n${out}`)));
  });
  return { child, exited, up, output: () => out };
}

/** The sample MIME package (samples/submit-queue-entry.mjm: a SubmitQueueEntry, its JDF and its PDF, which
 * `validate` finds clean) as an HTTP body and its Content-Type; each job gets its own Command ID. */
const sample = readFileSync(path.join(here, '..', '..', 'samples', 'submit-queue-entry.mjm'), 'utf8');
const headEnd = sample.indexOf('\n\n');
const contentType = /^Content-Type: (.*)$/m.exec(sample.slice(0, headEnd))[1];
function submission(id) {
  return sample.slice(headEnd + 2).replace('<Command ID="C1"', `<Command ID="${id}"`);
}

/** Submits one job until it has a final answer (at most 20 tries); resolves with what each try got. */
async function submit(front, id) {
  const tries = [];
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      const res = await fetch(front, { method: 'POST', headers: { 'content-type': contentType }, body: submission(id) });
      const text = await res.text();
      const returnCode = /ReturnCode="(\d+)"/.exec(text)?.[1];
      // HAProxy's own answers (no server up, a server gone mid-request) name themselves in the outcome.
      const haproxy = /No server is available|Bad Gateway|Gateway Timeout/.exec(text)?.[0];
      tries.push({ status: res.status, outcome: res.headers.get('x-job-outcome') ?? 'answered', returnCode, ...(haproxy ? { error: `haproxy: ${haproxy}` } : {}) });
      if (res.status === 200 && returnCode !== undefined) return tries;
    } catch (error) {
      tries.push({ status: 0, error: error.cause?.code ?? error.message });
    }
    await sleep(100 * (attempt + 1));
  }
  return tries;
}

async function main() {
  if (spawnSync('haproxy', ['-v']).status !== 0) {
    console.log('haproxy is not installed (apt-get install -y haproxy; .ci/run installs it)');
    return false;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jfs-haproxy-'));
  const processes = [];
  let downstream;
  try {
    // The downstream: counts what arrives, by the job's Command ID.
    const arrived = new Map();
    downstream = createServer((req, res) => {
      const parts = [];
      req.on('data', (d) => parts.push(d));
      req.on('end', () => {
        const id = /<Command\b[^>]*\bID="([^"]+)"/.exec(Buffer.concat(parts).toString('utf8'))?.[1] ?? '?';
        arrived.set(id, (arrived.get(id) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/vnd.cip4-jmf+xml' });
        res.end('<JMF><Response ReturnCode="0"/></JMF>\n');
      });
    });
    await new Promise((resolve) => downstream.listen(0, '127.0.0.1', resolve));
    const forward = `http://127.0.0.1:${downstream.address().port}/jmf`;
    const outbox = path.join(dir, 'outbox');
    const config = path.join(dir, 'shop.json');
    writeFileSync(config, JSON.stringify({ serve: { outbox, forward } }));

    const [front, portA, portB] = [await freePort(), await freePort(), await freePort()];
    const instances = [['a', portA], ['b', portB]].map(([name, port]) => {
      const accessLog = path.join(dir, `${name}.access.log`);
      const [file, args] = instanceCommand({ port, config, accessLog });
      const instance = start(`instance ${name}`, file, args, /listening on/i);
      processes.push(instance);
      return { name, port, accessLog, ...instance };
    });
    await Promise.all(instances.map((i) => i.up));

    // HAProxy: round robin; /readyz checked every 200 ms, down after two failures (one slow check on a loaded
    // machine is not a dead server); a connection that fails (the killed instance) is tried again on the other
    // server (redispatch).
    const haproxyConfig = path.join(dir, 'haproxy.cfg');
    writeFileSync(haproxyConfig, `global
  maxconn 256
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
frontend front
  bind 127.0.0.1:${front}
  default_backend serve
backend serve
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
${instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check inter 200 fall 2 rise 1`).join('\n')}
`);
    const haproxy = start('haproxy', 'haproxy', ['-db', '-f', haproxyConfig], /./);
    processes.push(haproxy);
    // HAProxy prints nothing when all is well: ready once the front door answers.
    haproxy.up.catch(() => undefined);
    for (let i = 0; i < 100; i += 1) {
      const ok = await fetch(`http://127.0.0.1:${front}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      await sleep(50);
    }

    // The burst: JOBS jobs, CLIENTS at a time; instance a is killed after KILL_AFTER answers, a random few ms later
    // (wherever it is: reading a body, checking, forwarding, keeping an answer).
    const ids = Array.from({ length: JOBS }, (_, i) => `job-${String(i).padStart(4, '0')}`);
    const answers = new Map();
    let answered = 0;
    let killedAt = -1;
    const queue = [...ids];
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        answers.set(id, await submit(`http://127.0.0.1:${front}/jmf`, id));
        answered += 1;
        if (answered === KILL_AFTER) {
          killedAt = answered;
          await sleep(Math.random() * 30);
          process.kill(instances[0].child.pid, 'SIGKILL');
        }
      }
    }));
    const ms = Date.now() - started;
    await sleep(200);

    const final = (tries) => tries[tries.length - 1];
    const retried = [...answers.values()].filter((t) => t.length > 1).length;
    const unanswered = ids.filter((id) => final(answers.get(id))?.status !== 200 || final(answers.get(id))?.returnCode !== '0');
    // What each instance answered, from its own access log (one JSON line per request).
    const byInstance = {};
    for (const i of instances) {
      const lines = existsSync(i.accessLog) ? readFileSync(i.accessLog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
      byInstance[i.name] = lines.filter((e) => e.method === 'POST' && e.status === 200).length;
    }
    const outcomes = {};
    for (const tries of answers.values()) for (const t of tries) {
      const key = t.status === 200 ? t.outcome : `${t.status}${t.error ? ` ${t.error}` : ''}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    console.log(`${JOBS} jobs, ${CLIENTS} at a time, in ${ms} ms; instance a killed after ${killedAt} answers; ${retried} jobs resubmitted`);
    console.log(`every try's outcome: ${JSON.stringify(outcomes)}; jobs answered by each instance (its access log): ${JSON.stringify(byInstance)}`);

    check(killedAt > 0 && (await Promise.race([instances[0].exited, sleep(2000).then(() => 'alive')])) === 'SIGKILL', 'instance a was killed (SIGKILL) in the middle of the burst');
    check(Object.values(byInstance).every((n) => n > 0), 'both instances answered jobs');
    check(unanswered.length === 0, `every job has a final answer with ReturnCode 0${unanswered.length ? ` (not: ${unanswered.slice(0, 5).join(', ')})` : ''}`);
    // A queue entry: a folder of the outbox with a status.json; its submission holds the job's Command ID.
    const records = readdirSync(outbox).filter((n) => !n.startsWith('.') && existsSync(path.join(outbox, n, 'status.json')))
      .map((n) => /<Command\b[^>]*\bID="([^"]+)"/.exec(readFileSync(path.join(outbox, n, 'submission.mjm'), 'utf8'))?.[1]);
    const recorded = new Map();
    for (const id of records) recorded.set(id, (recorded.get(id) ?? 0) + 1);
    check(ids.every((id) => recorded.get(id) === 1) && records.length === JOBS, `every job recorded once in the outbox (${records.length} queue entries)`);
    // The claims taken over (claim.1 and later): the jobs the killed instance held without an answer.
    const claims = path.join(outbox, '.claims');
    const takenOver = new Set(readdirSync(claims).flatMap((k) => readdirSync(path.join(claims, k)).filter((n) => /^claim\.[1-9]\d*$/.test(n)).map(() => JSON.parse(readFileSync(path.join(claims, k, 'claim.0'), 'utf8')).id)));
    const twice = ids.filter((id) => (arrived.get(id) ?? 0) > 1);
    const lost = ids.filter((id) => (arrived.get(id) ?? 0) === 0);
    console.log(`claims taken over: ${takenOver.size}; jobs forwarded twice: ${twice.length}`);
    check(lost.length === 0 && arrived.size === JOBS && twice.every((id) => takenOver.has(id)),
      `every job forwarded once, or again only when its claim was taken over (${[...arrived.values()].reduce((a, b) => a + b, 0)} arrivals downstream${lost.length ? `; never: ${lost.slice(0, 5).join(', ')}` : ''}${twice.filter((id) => !takenOver.has(id)).length ? `; twice without a takeover: ${twice.filter((id) => !takenOver.has(id)).slice(0, 5).join(', ')}` : ''})`);
    const before = new Map(arrived);
    // An MIS that resubmits a job it has an answer for (it lost the answer) is answered, and nothing is passed on.
    const again = ids.filter((_, i) => i % 20 === 0);
    const second = await Promise.all(again.map((id) => submit(`http://127.0.0.1:${front}/jmf`, id)));
    check(second.every((tries) => final(tries).status === 200 && final(tries).returnCode === '0' && ['duplicate', 'answered'].includes(final(tries).outcome)) && again.every((id) => arrived.get(id) === before.get(id)),
      `${again.length} jobs submitted again: answered ReturnCode 0 as already accepted, not forwarded again`);
    // The survivor shuts down gracefully: SIGTERM, exit code 0.
    processes[1].child.kill('SIGTERM');
    check((await processes[1].exited) === 0, 'instance b ends with code 0 on SIGTERM');
    return results.every(Boolean);
  } finally {
    for (const p of processes) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => Promise.race([p.exited, sleep(2000)])));
    downstream?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ok = await main().catch((error) => {
  console.log(`FAIL ${error.message}`);
  return false;
});
console.log(`${results.filter(Boolean).length} passed, ${results.filter((r) => !r).length + (ok || results.some((r) => !r) ? 0 : 1)} failed (haproxy)`);
process.exit(ok ? 0 : 1);
