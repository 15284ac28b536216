// Shared by the watch suites: real temporary folders, tickets whose verdict is known from the appendix (a raw
// space in a URL is an error, Table 1), a watcher in this process or in a child, and exact counting of what
// ended up where.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWatch, type HotFolder } from '../src/node/watch/watch.js';
import type { TimedEvent } from '../src/node/watch/events.js';
import type { WatchOptions } from '../src/node/watch/options.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { DEFAULT_MAX_BYTES } from '../src/node/limits.js';

export interface Dirs {
  base: string;
  in: string;
  ok: string;
  error: string;
  stage: string;
}

/** Where the watcher keeps its claims when not told (--work): hidden beside IN, never in it (issue 26). */
export const defaultWork = (d: Dirs) => path.join(d.base, '.in.jdf-filespec');

export function makeDirs(prefix = 'jfs-watch-'): Dirs {
  const base = realpathSync(tempFolder(prefix));
  const d = { base, in: path.join(base, 'in'), ok: path.join(base, 'ok'), error: path.join(base, 'error'), stage: path.join(base, 'stage') };
  for (const p of [d.in, d.stage]) mkdirSync(p);
  return d;
}

/** A ticket carrying its own ID; `broken` gives it a raw space in a URL (an error by the appendix's Table 1). */
export function ticketXml(id: string, options: { broken?: boolean; urls?: string[]; directory?: string } = {}): string {
  const urls = options.urls ?? [options.broken ? 'pages/page one.pdf' : 'pages/page-one.pdf'];
  const dir = options.directory !== undefined ? ` Directory="${options.directory}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<JDF ID="${id}" Type="Product" Version="1.4" xmlns="http://www.CIP4.org/JDFSchema_1_1">\n <ResourcePool>\n  <RunList ID="RL1" Class="Parameter" Status="Available"${dir}>\n${urls.map((u) => `   <LayoutElement><FileSpec URL="${u}"/></LayoutElement>\n`).join('')}  </RunList>\n </ResourcePool>\n</JDF>\n`;
}

/** Writes a complete ticket into IN at once (staged beside it, then renamed in, as careful senders do). */
export function drop(d: Dirs, name: string, xml: string): void {
  const staged = path.join(d.stage, `${name}.${Math.random().toString(36).slice(2)}`);
  writeFileSync(staged, xml);
  renameSync(staged, path.join(d.in, name));
}

export const TICKET_RE = /\.(jdf|xjdf|jmf|xjmf|xml)$/i;

/** Every ticket routed: its folder, name, and the ID inside it. */
export function routed(d: Dirs): Array<{ folder: 'ok' | 'error'; name: string; id: string; hasReport: boolean }> {
  const out: Array<{ folder: 'ok' | 'error'; name: string; id: string; hasReport: boolean }> = [];
  for (const folder of ['ok', 'error'] as const) {
    const dir = d[folder];
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!TICKET_RE.test(name) || name.startsWith('.')) continue;
      const id = /<JDF ID="([^"]+)"/.exec(readFileSync(path.join(dir, name), 'utf8'))?.[1] ?? '?';
      out.push({ folder, name, id, hasReport: existsSync(path.join(dir, name + '.report.json')) });
    }
  }
  return out;
}

/** Ticket files anywhere under a folder (IN, the work folder). */
export function ticketsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => TICKET_RE.test(p) && !path.basename(p).startsWith('.'));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds; gives up (and the test fails) after `limitMs`, which is a guard, not a timing claim. */
export async function until(done: () => boolean, limitMs = 60_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await sleep(25);
  }
}

export interface Running {
  hot: HotFolder;
  events: TimedEvent[];
  count(kind: string): number;
}

export const QUICK: Partial<WatchOptions> = { settleMs: 150, pollMs: 200, heartbeatMs: 200, recheckMs: 100, parseWaitMs: 2000 };

export function options(d: Dirs, extra: Partial<WatchOptions> = {}): WatchOptions {
  return { in: d.in, ok: d.ok, error: d.error, validate: { platform: 'unix' }, maxBytes: DEFAULT_MAX_BYTES, toolVersion: 'test', ...QUICK, ...extra };
}

/** Watchers and children still running: a failed test must not leave one holding the process open. */
const live = new Set<{ stop(): unknown }>();

/** Something a test started that must be stopped even when the test fails. */
export function stopLater(stop: () => unknown): void {
  live.add({ stop });
}

/** Stops what the test started, then removes the folders it made (makeDirs): each suite's `test.after.each`. */
export async function stopAll(): Promise<void> {
  for (const w of [...live]) await w.stop();
  live.clear();
  removeTempFolders();
}

export async function watchHere(d: Dirs, extra: Partial<WatchOptions> = {}, internals = {}): Promise<Running> {
  const events: TimedEvent[] = [];
  const hot = await startWatch(options(d, extra), (e) => events.push(e), internals);
  live.add(hot);
  return { hot, events, count: (kind) => events.filter((e) => e.event === kind).length };
}

/** A watcher in a child process (test/watch-child.ts), for kill -9 and for two processes on one IN. */
export function watchChild(d: Dirs, extra: Partial<WatchOptions> = {}): ChildProcess & { lines: string[] } {
  const child = fileURLToPath(new URL('dist/test/watch-child.js', projectRoot));
  const proc = spawn(process.execPath, [child, JSON.stringify(options(d, extra))], { stdio: ['ignore', 'pipe', 'inherit'] }) as ChildProcess & { lines: string[] };
  proc.lines = [];
  live.add({ stop: () => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL'); } });
  let rest = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    proc.lines.push(...parts);
  });
  return proc;
}

export const exited = (p: ChildProcess) => new Promise<number | null>((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.once('exit', (code) => r(code))));

/** Ticket i of a crash or contention run: every third is broken; every fifth is called job.jdf (names collide in OK). */
export const runName = (i: number, collide = true) => (collide && i % 5 === 0 ? 'job.jdf' : `t${i}.jdf`);
export const runBroken = (i: number) => i % 3 === 0;

/**
 * Feeds `n` tickets into IN a few at a time while `busy()` holds a watcher up; a job.jdf goes in only when IN
 * has none (two files cannot share a name there). Resolves when all are in.
 */
export async function feed(d: Dirs, n: number, perStep = 5, stepMs = 20, collide = true): Promise<void> {
  const staged: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = path.join(d.stage, `${i}`);
    writeFileSync(p, ticketXml(`id${i}`, { broken: runBroken(i) }));
    staged.push(p);
  }
  let next = 0;
  const waitingJob: number[] = [];
  while (next < n || waitingJob.length > 0) {
    for (let k = 0; k < perStep && (next < n || waitingJob.length > 0); k++) {
      if (waitingJob.length > 0 && !existsSync(path.join(d.in, 'job.jdf'))) {
        const i = waitingJob.shift()!;
        renameSync(staged[i]!, path.join(d.in, 'job.jdf'));
        continue;
      }
      if (next >= n) break;
      const i = next++;
      if (runName(i, collide) === 'job.jdf') waitingJob.push(i);
      else renameSync(staged[i]!, path.join(d.in, runName(i, collide)));
    }
    await sleep(stepMs);
  }
}

/** Checks a finished run of `n` tickets: each ID routed exactly once, to the right folder, with a whole report; nothing left behind. */
export function checkRun(d: Dirs, n: number, work: string, collide = true): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const x of routed(d)) {
    seen.set(x.id, (seen.get(x.id) ?? 0) + 1);
    const i = Number(x.id.slice(2));
    if (x.folder !== (runBroken(i) ? 'error' : 'ok')) problems.push(`${x.id} in ${x.folder}`);
    if (!x.hasReport) problems.push(`${x.name} without its report`);
    else {
      try {
        const report = JSON.parse(readFileSync(path.join(d[x.folder], x.name + '.report.json'), 'utf8'));
        if (report.files[0].path !== path.join(d.in, runName(i, collide))) problems.push(`${x.name}: report of ${report.files[0].path}`);
      } catch (error) {
        problems.push(`${x.name}: report unreadable: ${(error as Error).message}`);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const c = seen.get(`id${i}`) ?? 0;
    if (c !== 1) problems.push(`id${i} routed ${c} times`);
  }
  for (const t of ticketsUnder(d.in)) problems.push(`left in IN or the work folder: ${t}`);
  if (!work.startsWith(d.in + path.sep)) for (const t of ticketsUnder(work)) problems.push(`left in the work folder: ${t}`);
  for (const folder of [d.ok, d.error]) for (const f of existsSync(folder) ? readdirSync(folder) : []) if (f.startsWith('.')) problems.push(`stray temporary ${f}`);
  return problems;
}

/** Kills a watcher with SIGKILL `kills` times at random moments while `n` tickets arrive, then lets one finish. */
export async function killRun(n: number, kills: number, extra: Partial<WatchOptions> = {}): Promise<{ problems: string[]; kills: number; resumed: number }> {
  const d = makeDirs('jfs-kill-');
  const feeding = feed(d, n, 2, 40); // spread over the kills, so that they fall in the middle of the work
  let resumed = 0;
  for (let k = 0; k < kills; k++) {
    const child = watchChild(d, extra);
    await sleep(150 + Math.random() * 600);
    child.kill('SIGKILL');
    await exited(child);
    resumed += child.lines.filter((l) => l.includes('"event":"resumed"')).length;
  }
  const last = watchChild(d, extra);
  await feeding;
  await until(() => routed(d).length >= n, 120_000, 'every ticket to be routed after the last restart');
  await until(() => last.lines.some((l) => l.includes('"event":"started"')), 60_000, 'the last watcher to start'); // as in killFolderRun
  last.kill('SIGTERM');
  const code = await exited(last);
  resumed += last.lines.filter((l) => l.includes('"event":"resumed"')).length;
  const problems = checkRun(d, n, defaultWork(d));
  if (code !== 0) problems.push(`the last watcher exited with ${code}`);
  return { problems, kills, resumed };
}

/** A job folder at `dir`: its ticket job.jdf (ID `id`, `broken` as ticketXml) naming pages/p.pdf, which is there. */
export function jobFolder(dir: string, id: string, broken = false): void {
  mkdirSync(path.join(dir, 'pages'), { recursive: true });
  writeFileSync(path.join(dir, 'job.jdf'), ticketXml(id, { urls: [broken ? 'pages/p 1.pdf' : 'pages/p.pdf'] }));
  writeFileSync(path.join(dir, 'pages', 'p.pdf'), `%PDF ${id}`);
}

/** Job folders (with job.jdf) in OK and ERROR, by the ID in each one's ticket: where each is, or that its report is not beside it. */
export function routedFolders(d: Dirs): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const dir of [d.ok, d.error]) {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const ticket = path.join(dir, name, 'job.jdf');
      if (!existsSync(ticket)) continue;
      const id = /<JDF ID="([^"]+)"/.exec(readFileSync(ticket, 'utf8'))?.[1] ?? '?';
      const at = path.join(dir, name);
      out.set(id, [...(out.get(id) ?? []), existsSync(`${at}.report.json`) ? at : `${at} without its report`]);
    }
  }
  return out;
}

/**
 * Kills a watcher with SIGKILL `kills` times at random moments while `n` job folders arrive (every third with a
 * raw space in its URL: ERROR), then lets one finish; what went wrong, or nothing.
 */
export async function killFolderRun(n: number, kills: number): Promise<string[]> {
  const d = makeDirs('jfs-kill-folders-');
  const broken = (i: number) => i % 3 === 0;
  for (let i = 0; i < n; i++) jobFolder(path.join(d.stage, `job-${i}`), `f${i}`, broken(i));
  const feeding = (async () => {
    for (let i = 0; i < n; i++) {
      renameSync(path.join(d.stage, `job-${i}`), path.join(d.in, `job-${i}`));
      await sleep(40);
    }
  })();
  for (let k = 0; k < kills; k++) {
    const child = watchChild(d);
    await sleep(200 + Math.random() * 500);
    child.kill('SIGKILL');
    await exited(child);
  }
  const last = watchChild(d);
  await feeding;
  await until(() => routedFolders(d).size >= n && readdirSync(d.in).length === 0, 300_000, 'every job folder to be routed after the last restart');
  // The killed watchers may have routed every folder already: the last one must be running (its signal handler
  // taken) before it is asked to stop, or SIGTERM ends a process that has not loaded yet.
  await until(() => last.lines.some((l) => l.includes('"event":"started"')), 60_000, 'the last watcher to start');
  last.kill('SIGTERM');
  const problems: string[] = [];
  const code = await exited(last);
  if (code !== 0) problems.push(`the last watcher exited with ${code}${last.signalCode ? ` (${last.signalCode})` : ''}`);
  const seen = routedFolders(d);
  for (let i = 0; i < n; i++) {
    const at = seen.get(`f${i}`) ?? [];
    if (at.length !== 1) problems.push(`f${i} routed ${at.length} times: ${at.join(', ')}`);
    else if (!at[0]!.startsWith((broken(i) ? d.error : d.ok) + path.sep)) problems.push(`f${i} in ${at[0]}`);
    else if (at[0]!.endsWith('without its report')) problems.push(at[0]!);
  }
  for (const folder of [d.ok, d.error]) for (const f of readdirSync(folder)) if (f.startsWith('.')) problems.push(`stray temporary ${f}`);
  const work = defaultWork(d);
  for (const t of existsSync(work) ? (readdirSync(work, { recursive: true }) as string[]).filter((p) => p.endsWith('job.jdf')) : []) problems.push(`left in the work folder: ${t}`);
  return problems;
}
