// The operator sees why (issue 27): on a terminal, the line of a ticket routed to ERROR names its first error
// (code and message) and where its report is, and a running count of tickets waiting, being checked and routed
// is kept on the last line. Run under a real pseudo-terminal (Python's pty module), as an operator runs it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { ticketXml } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));

/** Starts the watcher with standard error on a pty, drops the ticket once it is watching, stops it once the ticket is routed; returns what the terminal showed. */
const SCRIPT = `
import os, pty, select, signal, subprocess, sys, time, json
node, main, inn, ok, err, name, text = sys.argv[1:8]
master, slave = pty.openpty()
p = subprocess.Popen([node, main, 'watch', inn, '--ok', ok, '--error', err, '--settle', '100ms', '--poll-interval', '200ms'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
seen = b''
dropped = False
end = time.time() + 60
stop_at = None
while time.time() < end:
    r, _, _ = select.select([master], [], [], 0.1)
    if r:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    if not dropped and b'watching' in seen:
        with open(os.path.join(inn, '.' + name), 'w') as f:
            f.write(text)
        os.rename(os.path.join(inn, '.' + name), os.path.join(inn, name))
        dropped = True
    if stop_at is None and b'ERROR ' in seen:
        stop_at = time.time() + 0.8
    if stop_at is not None and time.time() > stop_at and p.poll() is None:
        p.send_signal(signal.SIGTERM)
        stop_at = float('inf')
    if p.poll() is not None and not r:
        break
p.wait(timeout=30)
sys.stdout.write(json.dumps(seen.decode('utf8', 'replace')))
`;

test('on a terminal: the ERROR line names the first error (code and message) and the report; a running count is shown', () => {
  const base = tempFolder('jfs-tty-');
  const d = { in: path.join(base, 'in'), ok: path.join(base, 'ok'), error: path.join(base, 'error') };
  mkdirSync(d.in);
  // A raw space in a URL: unescaped-space, an error by the appendix's Table 1.
  const r = spawnSync('python3', ['-c', SCRIPT, process.execPath, main, d.in, d.ok, d.error, 'broken.jdf', ticketXml('b', { broken: true })], { encoding: 'utf8', timeout: 120_000 });
  assert.is(r.status, 0, r.stderr);
  const shown = (JSON.parse(r.stdout) as string).split(/\r\n|\r|\n/).map((l) => l.replace(/\x1b\[K/g, ''));
  const report = JSON.parse(readFileSync(path.join(d.error, 'broken.jdf.report.json'), 'utf8'));
  const first = report.files[0].references[0].findings.find((f: { code: string }) => f.code === 'unescaped-space') as { message: string };
  const line = shown.find((l) => l.includes('ERROR ') && l.includes('broken.jdf'));
  assert.ok(line, shown.join('\n'));
  assert.ok(line!.includes(`unescaped-space: ${first.message}`), line);
  assert.ok(line!.includes(`report ${path.join(d.error, 'broken.jdf.report.json')}`), line);
  assert.ok(shown.some((l) => /\d+ waiting for files, \d+ being checked; routed 1 \(0 ok, 1 error\)/.test(l)), shown.join('\n'));
});

test.after.each(removeTempFolders);

test.run();
