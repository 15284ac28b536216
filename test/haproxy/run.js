/* global fetch -- Node 20 has it; the lint config lists the globals of older scripts. */
// npm run test:haproxy: serve scales out, shown with a real load balancer. Two instances behind HAProxy (Debian's
// package; .ci/run installs it when missing) on loopback share one outbox folder and one downstream; a bounded
// burst of JMF submissions (the MIME package samples/submit-queue-entry.mjm, each with its own Command ID) goes
// through HAProxy, one instance is killed (SIGKILL) in the middle of it, and then:
// every job was answered once (one final answer each, ReturnCode 0), recorded once in the outbox, and passed on
// to the downstream once. The client resubmits what got no answer (502/503 from HAProxy, a reset), as an MIS
// does; an instance that finds the job already in the outbox answers without passing it on again.
// The kill is taken outside an instance's commit step (the link into the outbox and the forward, a few ms of
// each job's time): run.js stops the instance (SIGSTOP), reads the state file the instance keeps, and kills it
// only when no job is inside that step (else it lets it run on a little and tries again). A kill inside the step
// leaves a job recorded but not passed on, or passed on but not recorded as such: exactly once across that needs
// a downstream that drops duplicates, which a JMF device is not; the instance then is the place to fix it.
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

/**
 * How one instance is started: the one place to change when `jdf-filespec serve` takes over from the stand-in
 * (test/haproxy/instance.js). It gets the port to listen on, the shared outbox folder, the downstream's URL, an
 * access log file and the state file. It must print a line with "listening" once it listens, answer each
 * submission with a JMF Response (ReturnCode 0 for these jobs), record each accepted job once in the outbox (a
 * file anywhere under it, outside a folder named tmp, whose text holds the job's <Command ID>), forward it once
 * to the downstream as the sender made it, and answer a second submission of a job without forwarding it again.
 * The state file is optional (without it the kill lands wherever it lands).
 */
function instanceCommand({ port, outbox, forward, accessLog, state }) {
  return [process.execPath, [path.join(here, 'instance.js'), '--port', String(port), '--outbox', outbox, '--forward', forward, '--access-log', accessLog, '--state', state]];
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

/** Kills the instance outside its commit step: stopped, its state read, killed when it says 0. */
async function killOutsideCommit(instance, stateFile) {
  if (!existsSync(stateFile)) {
    console.log('(the instance keeps no state file: killed wherever it is)');
    process.kill(instance.child.pid, 'SIGKILL');
    return 0;
  }
  for (let attempt = 0; attempt < 200; attempt += 1) {
    process.kill(instance.child.pid, 'SIGSTOP');
    let state = '';
    try {
      state = readFileSync(stateFile, 'utf8');
    } catch {
      // not written yet
    }
    if (state === '0') {
      process.kill(instance.child.pid, 'SIGKILL');
      return attempt;
    }
    process.kill(instance.child.pid, 'SIGCONT');
    await sleep(1 + Math.random() * 5);
  }
  process.kill(instance.child.pid, 'SIGKILL');
  return -1;
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

    const [front, portA, portB] = [await freePort(), await freePort(), await freePort()];
    const instances = [['a', portA], ['b', portB]].map(([name, port]) => {
      const state = path.join(dir, `${name}.state`);
      const accessLog = path.join(dir, `${name}.access.log`);
      const [file, args] = instanceCommand({ port, outbox, forward, accessLog, state });
      const instance = start(`instance ${name}`, file, args, /listening|http:\/\//i);
      processes.push(instance);
      return { name, port, state, accessLog, ...instance };
    });
    await Promise.all(instances.map((i) => i.up));

    // HAProxy: round robin; /readyz checked every 200 ms, down after two failures (one slow check on a loaded
    // machine is not a dead server); a connection that fails (the killed instance) is tried again on the other
    // server (redispatch).
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(config, `global
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
    const haproxy = start('haproxy', 'haproxy', ['-db', '-f', config], /./);
    processes.push(haproxy);
    // HAProxy prints nothing when all is well: ready once the front door answers.
    haproxy.up.catch(() => undefined);
    for (let i = 0; i < 100; i += 1) {
      const ok = await fetch(`http://127.0.0.1:${front}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      await sleep(50);
    }

    // The burst: JOBS jobs, CLIENTS at a time; instance a is killed after KILL_AFTER answers.
    const ids = Array.from({ length: JOBS }, (_, i) => `job-${String(i).padStart(4, '0')}`);
    const answers = new Map();
    let answered = 0;
    let killedAt = -1;
    let killTries = -1;
    const queue = [...ids];
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        answers.set(id, await submit(`http://127.0.0.1:${front}/jmf`, id));
        answered += 1;
        if (answered === KILL_AFTER) {
          killedAt = answered;
          killTries = await killOutsideCommit(instances[0], instances[0].state);
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
    console.log(`${JOBS} jobs, ${CLIENTS} at a time, in ${ms} ms; instance a killed after ${killedAt} answers (${killTries + 1} stop(s) to find it outside its commit step); ${retried} jobs resubmitted`);
    console.log(`every try's outcome: ${JSON.stringify(outcomes)}; jobs answered by each instance (its access log): ${JSON.stringify(byInstance)}`);

    check(killTries >= 0 && (await Promise.race([instances[0].exited, sleep(2000).then(() => 'alive')])) === 'SIGKILL', 'instance a was killed (SIGKILL) in the middle of the burst');
    check(Object.values(byInstance).every((n) => n > 0), 'both instances answered jobs');
    check(unanswered.length === 0, `every job has a final answer with ReturnCode 0${unanswered.length ? ` (not: ${unanswered.slice(0, 5).join(', ')})` : ''}`);
    const records = readdirSync(outbox, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !path.relative(outbox, e.parentPath ?? e.path).split(path.sep).includes('tmp'))
      .map((e) => readFileSync(path.join(e.parentPath ?? e.path, e.name), 'utf8'))
      .map((text) => /<Command\b[^>]*\bID="([^"]+)"/.exec(text)?.[1])
      .filter((id) => id !== undefined);
    const recorded = new Map();
    for (const id of records) recorded.set(id, (recorded.get(id) ?? 0) + 1);
    check(ids.every((id) => recorded.get(id) === 1) && records.length === JOBS, `every job recorded once in the outbox (${records.length} records)`);
    const twice = ids.filter((id) => (arrived.get(id) ?? 0) !== 1);
    check(twice.length === 0 && arrived.size === JOBS, `every job forwarded once (${[...arrived.values()].reduce((a, b) => a + b, 0)} arrivals downstream${twice.length ? `; not once: ${twice.slice(0, 5).join(', ')}` : ''})`);
    // An MIS that resubmits a job it has an answer for (it lost the answer) is answered, and nothing is passed on.
    const again = ids.filter((_, i) => i % 20 === 0);
    const second = await Promise.all(again.map((id) => submit(`http://127.0.0.1:${front}/jmf`, id)));
    check(second.every((tries) => final(tries).status === 200 && final(tries).returnCode === '0' && ['duplicate', 'answered'].includes(final(tries).outcome)) && again.every((id) => arrived.get(id) === 1),
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
