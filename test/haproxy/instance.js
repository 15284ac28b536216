/* global fetch -- Node 20 has it; the lint config lists the globals of older scripts. */
// A stand-in `serve` instance for npm run test:haproxy (test/haproxy/run.js), until the JMF handler lands: the
// real listener (startServer, built in dist/) with a handler that does what serve does with an accepted job and
// keeps no state of its own. For each submission: read it, "check" it (a pause, as a check takes time), record it
// in the shared outbox with one atomic link (outbox/jobs/ID.jmf; a second submission of the same job finds it
// there and is answered without being passed on again), pass it on to the downstream URL, and answer in JMF.
//   node test/haproxy/instance.js --port N --outbox DIR --forward URL --access-log FILE --state FILE
// --state: a file that says 1 while the instance is inside its commit step (the link and the forward) and 0
// outside it, read by run.js to choose the moment of the kill (see run.js).
import { createWriteStream, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const { startServer, closeOnSignals } = await import(path.join(root, 'dist/src/node/serve/server.js'));
const { values } = parseArgs({ options: { port: { type: 'string' }, outbox: { type: 'string' }, forward: { type: 'string' }, 'access-log': { type: 'string' }, state: { type: 'string' } } });
const jobs = path.join(values.outbox, 'jobs');
const tmp = path.join(values.outbox, 'tmp');
mkdirSync(jobs, { recursive: true });
mkdirSync(tmp, { recursive: true });

let committing = 0;
const mark = (delta) => {
  committing += delta;
  if (values.state) writeFileSync(values.state, String(committing));
};
mark(0);

const answer = (returnCode, outcome, id) => ({
  status: 200,
  headers: { 'content-type': 'application/vnd.cip4-jmf+xml', 'x-job-outcome': outcome },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<JMF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.7"><Response Type="SubmitQueueEntry" refID="${id}" ReturnCode="${returnCode}"/></JMF>\n`,
  job: { accepted: returnCode === 0, returnCode },
});

async function handler(request) {
  const parts = [];
  for await (const chunk of request.body) parts.push(chunk);
  const body = Buffer.concat(parts);
  const id = /<Command\b[^>]*\bID="([A-Za-z0-9_-]+)"/.exec(body.toString('utf8'))?.[1];
  if (!id) return answer(5, 'refused', 'unknown'); // JMF ReturnCode 5: query/command not implemented (no Command ID)
  await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));
  mark(1);
  try {
    // The commit: one link makes the job's record appear whole, once, whichever instance gets there first.
    const staged = path.join(tmp, `${id}.${process.pid}.${Date.now()}`);
    writeFileSync(staged, body);
    try {
      linkSync(staged, path.join(jobs, `${id}.jmf`));
    } catch (error) {
      if (error.code === 'EEXIST') return answer(0, 'duplicate', id);
      throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    const forwarded = await fetch(values.forward, { method: 'POST', headers: { 'content-type': 'application/vnd.cip4-jmf+xml' }, body });
    if (!forwarded.ok) throw new Error(`downstream answered ${forwarded.status}`);
    await forwarded.arrayBuffer();
    return answer(0, 'accepted', id);
  } finally {
    mark(-1);
  }
}

const accessLog = values['access-log'] ? createWriteStream(values['access-log'], { flags: 'a' }) : undefined;
const running = await startServer({ host: '127.0.0.1', port: Number(values.port), maxConcurrent: 32, ...(accessLog ? { accessLog } : {}) }, handler);
closeOnSignals(running, 5_000);
process.stdout.write(`listening ${running.port}\n`);
await running.closed;
accessLog?.end();
