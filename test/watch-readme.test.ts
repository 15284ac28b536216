// The README's hot-folder section, run as written (issue 27): its example command and its systemd unit's
// ExecStart, with /srv/hot, /srv/jobs and /run replaced by temporary folders, take a clean ticket whose PDF is
// under the root (a POSIX file URL), the bundled zip job package and a ticket with a URL syntax error that also
// names a file not there, and route them as the section says: OK (no warning), OK, ERROR at once (none waits the
// ten minutes), each with the reports the command asks for, the status file where it says. The example event's fields are the ones the watcher emits.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { exited, ticketXml, until } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const readme = readFileSync(fileURLToPath(new URL('README.md', projectRoot)), 'utf8');
const section = readme.slice(readme.indexOf('### Run it as a hot folder'), readme.indexOf('\n### ', readme.indexOf('### Run it as a hot folder') + 5));

/** A command line of the README (continuation lines joined) as its words; only plain words are expected (no quotes). */
function words(command: string): string[] {
  const joined = command.replace(/\\\n\s*/g, ' ').trim();
  assert.not.match(joined, /["'$`]/, `the README's command is more than plain words: ${joined}`);
  return joined.split(/\s+/);
}

/** The README's paths mapped into `base`. */
function here(args: string[], base: string): string[] {
  return args.map((a) => a.replace(/^\/srv\//, `${base}/srv/`).replace(/^\/run\//, `${base}/run/`));
}

const exampleCommand = (): string[] => {
  const m = /```sh\n(jdf-filespec watch [^`]+?)\n```/.exec(section);
  assert.ok(m, 'the section has its ```sh example');
  return words(m![1]!).slice(1); // less "jdf-filespec"
};

const unitCommand = (): string[] => {
  const m = /ExecStart=\S+ (watch [^\n]*\\\n[^\n]*)/.exec(section);
  assert.ok(m, 'the section has its systemd unit');
  return words(m![1]!);
};

async function runAsWritten(args: string[]): Promise<{ base: string; events: Array<Record<string, unknown>>; status: string }> {
  const base = realpathSync(tempFolder('jfs-readme-'));
  const cmd = here(args, base);
  const inn = cmd[1]!;
  const root = cmd[cmd.indexOf('--root') + 1]!;
  const status = cmd[cmd.indexOf('--status') + 1]!;
  for (const dir of [inn, path.join(root, '4711'), path.dirname(status), path.join(base, 'stage')]) mkdirSync(dir, { recursive: true });
  const pdf = path.join(root, '4711', 'book.pdf');
  writeFileSync(pdf, '%PDF-1.4 stand-in\n');
  let child: ChildProcess | undefined;
  let out = '';
  try {
    child = spawn(process.execPath, [main, ...cmd], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    await until(() => out.includes('"event":"started"'), 30_000, 'the watcher to start');
    const put = (name: string, write: (p: string) => void) => {
      const staged = path.join(base, 'stage', name);
      write(staged);
      renameSync(staged, path.join(inn, name));
    };
    put('4711.jdf', (p) => writeFileSync(p, ticketXml('4711', { urls: [pathToFileURL(pdf).href] })));
    put('job.zip', (p) => copyFileSync(fileURLToPath(new URL('samples/xjdf-package.zip', projectRoot)), p));
    // A raw space (unescaped-space, an error by the appendix's Table 1) in a ticket that also names a file not there.
    put('broken.jdf', (p) => writeFileSync(p, ticketXml('broken', { urls: ['pages/page one.pdf', pathToFileURL(path.join(root, '4711', 'later.pdf')).href] })));
    await until(() => (out.match(/"event":"(ok|error)"/g) ?? []).length === 3, 90_000, 'the three jobs to be routed (none should wait ten minutes)');
    await until(() => existsSync(status), 30_000, 'the status file');
  } finally {
    child?.kill('SIGTERM');
    if (child) await exited(child);
  }
  return { base, events: out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>), status };
}

function routedAsTheSectionSays(r: { base: string; events: Array<Record<string, unknown>> }, formats: string[]): void {
  const to = Object.fromEntries(r.events.filter((e) => e.event === 'ok' || e.event === 'error').map((e) => [e.ticket, e.event]));
  assert.equal(to, { '4711.jdf': 'ok', 'job.zip': 'ok', 'broken.jdf': 'error' });
  assert.is(r.events.filter((e) => e.event === 'waiting').length, 0, 'a job waited');
  const ok = path.join(r.base, 'srv/hot/ok');
  const error = path.join(r.base, 'srv/hot/error');
  const with_ = (name: string) => [name, ...formats.map((f) => `${name}.report.${f}`)];
  assert.equal(readdirSync(ok).sort(), [...with_('4711.jdf'), ...with_('job.zip')].sort());
  assert.equal(readdirSync(error).sort(), with_('broken.jdf').sort());
  // This machine is the consumer: a POSIX file URL checked here has no root-without-drive warning.
  assert.equal(JSON.parse(readFileSync(path.join(ok, '4711.jdf.report.json'), 'utf8')).summary, { files: 1, references: 1, error: 0, warning: 0, info: 0, suppressed: 0 });
}

test("the section's example command, as written", async () => {
  const args = exampleCommand();
  const after = args.slice(args.indexOf('--report-format') + 1);
  const formats = after.slice(0, after.findIndex((a) => a.startsWith('--')));
  const r = await runAsWritten(args);
  routedAsTheSectionSays(r, formats);
  // The section's example event: every field it shows is one the watcher emits.
  const example = JSON.parse(/```json\n(\{"event":"ok"[^\n]*)\n```/.exec(section)![1]!) as Record<string, unknown>;
  const emitted = r.events.find((e) => e.event === 'ok')!;
  for (const key of Object.keys(example)) assert.ok(key in emitted, `the example's ${key} is not in the event`);
  const status = JSON.parse(readFileSync(r.status, 'utf8')) as { in: string };
  assert.is(status.in, path.join(r.base, 'srv/hot/in'));
});

test("the systemd unit's ExecStart, as written", async () => {
  const r = await runAsWritten(unitCommand());
  routedAsTheSectionSays(r, ['json']);
});

test.after.each(removeTempFolders);

test.run();
