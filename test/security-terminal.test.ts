// Issue 26, LOW-MEDIUM: values were shown escaped in the findings, but the resolved-URI line, the fix: line, the
// ticket's file name, check's output and the fix --dry-run diff printed raw ESC, BEL and C1 controls: a ticket
// could retitle, clear or hide parts of the operator's terminal, and a bidi override could show text in another
// order. Everything printed for a terminal now writes them as \uXXXX; the diff keeps the file's bytes when
// standard output is not a terminal (git apply needs them), and is escaped when it is one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forTerminal } from '../src/report/terminal.js';
import { projectRoot } from './helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const cli = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-secterm-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

// What drives a terminal: ESC (an OSC title, a CSI clear), BEL, CSI as one C1 character, DEL, RLO and an isolate.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const rawIn = (text: string) => RAW.exec(text.replace(/\r?\n/g, ''))?.[0];
const NASTY = 'a\u001b]0;pwned\u0007b\u009b2J\u007fc\u202ed\u2066e f.pdf';
const xml = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const ticketText = `<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="${xml(NASTY)}"/></RunList></ResourcePool></JDF>\n`;
// A file name a producer chose: ESC and a bidi override in it.
const ticket = path.join(dir, 'job\u001b[8m\u202e.jdf');
writeFileSync(ticket, ticketText);

/** Runs the CLI with a terminal (a pseudo-terminal made by Python's pty module) as its standard output; \r\n as \n. */
function inTerminal(...args: string[]): string {
  const py = 'import os, pty, sys\npid, fd = pty.fork()\nif pid == 0:\n    os.execv(sys.argv[1], sys.argv[1:])\nout = b""\nwhile True:\n    try:\n        data = os.read(fd, 65536)\n    except OSError:\n        break\n    if not data:\n        break\n    out += data\nos.waitpid(pid, 0)\nsys.stdout.buffer.write(out)\n';
  const r = spawnSync('python3', ['-c', py, process.execPath, main, ...args], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout.replace(/\r\n/g, '\n');
}

test('terminal: check prints no raw control, in the value, the resolved URI, the messages and the fix: lines', () => {
  const r = cli('check', NASTY, '--base', 'file:///srv/hot/');
  assert.is(r.status, 1, r.stderr);
  assert.is(rawIn(r.stdout + r.stderr), undefined);
  assert.match(r.stdout, '  resolved: file:///srv/hot/a\\u001b]0;pwned\\u0007b\\u009b2J\\u007fc\\u202ed\\u2066e f.pdf\n');
  assert.match(r.stdout, /fix: .*\\u202e/);
});

for (const format of ['text', 'unix', 'github']) {
  test(`terminal: validate --format ${format} --references prints no raw control, the file name included`, () => {
    const r = cli('validate', ticket, '--format', format, '--references');
    assert.is(r.status, 1, r.stderr);
    assert.is(rawIn(r.stdout + r.stderr), undefined, JSON.stringify(r.stdout));
    assert.match(r.stdout, 'job\\u001b[8m\\u202e.jdf');
  });
}

test('terminal: fix prints no raw control in its lines and notes', () => {
  const copy = path.join(dir, 'fixed\u0007\u009b.jdf');
  // A raw "#" makes one fix a note ("not fixed"): the note quotes the value and its fix.
  writeFileSync(copy, ticketText.replace('e f.pdf', 'e f#.pdf'));
  const r = cli('fix', copy);
  assert.is(r.status, 1, r.stderr); // errors are left (the "#" value): exit 1, as eslint --fix
  assert.match(r.stderr, 'not fixed');
  assert.is(rawIn(r.stdout + r.stderr), undefined, JSON.stringify(r.stdout + r.stderr));
  assert.match(r.stdout + r.stderr, 'fixed\\u0007\\u009b.jdf');
});

test('terminal: fix --dry-run writes the file\'s bytes to a pipe (git apply needs them), escaped to a terminal', () => {
  const piped = cli('fix', '--dry-run', ticket);
  assert.is(piped.status, 1, piped.stderr); // the control characters' errors are left: exit 1
  assert.match(piped.stdout, `-${ticketText.trimEnd()}`, 'the removed line as the file holds it');
  const shown = inTerminal('fix', '--dry-run', ticket);
  assert.match(shown, '@@ -1,1 +1,1 @@');
  assert.is(rawIn(shown), undefined, JSON.stringify(shown));
  assert.match(shown, '-<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="a\\u001b]0;pwned\\u0007b\\u009b2J\\u007fc\\u202ed\\u2066e f.pdf"/>');
  assert.is(readFileSync(ticket, 'utf8'), ticketText);
});

// Hand-written: each control as a JSON string writes it (\u and four lowercase hex digits); a tab stays.
test('terminal: forTerminal', () => {
  assert.is(forTerminal('a\tb'), 'a\tb');
  assert.is(forTerminal('\u0000\u001f\u007f\u0080\u009f'), '\\u0000\\u001f\\u007f\\u0080\\u009f');
  assert.is(forTerminal('\u202a\u202e\u2066\u2069\u2067'), '\\u202a\\u202e\\u2066\\u2069\\u2067');
  assert.is(forTerminal('\r\n'), '\\u000d\\u000a');
  assert.is(forTerminal('Brosch\u00fcre \u202f \u2065'), 'Brosch\u00fcre \u202f \u2065');
});

test.run();
