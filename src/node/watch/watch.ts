// The hot folder: tickets appear in IN, settle, parse, are claimed into the work folder, wait for their files,
// are checked as `validate` checks them, and are routed to OK or ERROR with their reports. Each stage is a
// room of its own (settle, claim, referenced, route, ...); this file only moves tickets between them.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { countFindings, type Counts } from '../../report/check-text.js';
import { allFindings, type FileReport } from '../../report/report.js';
import { validateSources } from '../batch.js';
import { Claims, type Claim } from './claim.js';
import { discover, type Discovery, type WatcherFactory } from './discover.js';
import type { EventSink, WatchEvent } from './events.js';
import { runHook } from './hooks.js';
import { Names } from './names.js';
import { timingsOf, type Timings, type WatchOptions } from './options.js';
import { newOwner, retireOwner, STATUS_NAME, type Owner } from './owner.js';
import { missingOf, presentFiles, type Missing } from './referenced.js';
import { writeReports } from './reports.js';
import { place, readRecord, routeSuffixes, type RouteRecord, type Verdict } from './route.js';
import { sameSnapshot, Settling, snapshot, type Snapshot } from './settle.js';
import { LIST_LIMIT, writeStatus, type Status } from './status.js';

/** A folder set-up the watcher cannot work with: the CLI's usage error. */
export class WatchSetupError extends Error {}

/** Findings that mean the bytes are not a whole XML document yet. */
const INCOMPLETE = new Set(['xml-empty', 'xml-malformed', 'invalid-encoding-bytes']);

interface Job {
  name: string;
  /** Where it arrived (IN/name): the base of its relative references, wherever it is now. */
  source: string;
  claim?: Claim;
  stage: 'settling' | 'queued' | 'checking' | 'waiting';
  settle: Settling;
  /** When to look at it next. */
  due: number;
  arrived: number;
  checkMs: number;
  waitSince?: number;
  missing: Missing[];
  refs?: Map<string, Snapshot | null> | undefined;
  refsSince?: number;
  rounds: number;
}

export interface HotFolder {
  readonly owner: string;
  readonly mode: 'events' | 'polling';
  /** Stops taking tickets, finishes those being checked, and stops. Tickets waiting for files stay claimed for the next start. */
  stop(): Promise<void>;
}

export interface WatchInternals {
  /** Stands in for the file-system watch (tests play a share whose events never arrive). */
  watcherFactory?: WatcherFactory;
}

export async function startWatch(options: WatchOptions, sink: EventSink, internals: WatchInternals = {}): Promise<HotFolder> {
  const folders = await prepareFolders(options);
  const t = timingsOf(options);
  const owner = newOwner();
  const claims = new Claims(folders.work, owner);
  await claims.open();
  return new Watcher(options, folders, t, owner, claims, sink).start(internals);
}

interface Folders {
  in: string;
  ok: string;
  error: string;
  work: string;
}

async function prepareFolders(o: WatchOptions): Promise<Folders> {
  const f: Folders = { in: path.resolve(o.in), ok: path.resolve(o.ok), error: path.resolve(o.error), work: path.resolve(o.work ?? path.join(o.in, '.jdf-filespec')) };
  let inInfo;
  try {
    inInfo = await stat(f.in);
  } catch {
    throw new WatchSetupError(`the hot folder ${f.in} does not exist`);
  }
  if (!inInfo.isDirectory()) throw new WatchSetupError(`the hot folder ${f.in} is not a folder`);
  if (f.ok === f.in || f.error === f.in) throw new WatchSetupError('--ok and --error must be other folders than the hot folder');
  if (f.work === f.ok || f.work === f.error || f.work === f.in) throw new WatchSetupError('--work must be a folder of its own');
  for (const dir of [f.ok, f.error, f.work]) await mkdir(dir, { recursive: true });
  if ((await stat(f.work)).dev !== inInfo.dev) throw new WatchSetupError(`--work ${f.work} must be on the same file system as the hot folder, so that a ticket is claimed by one rename`);
  return f;
}

class Watcher implements HotFolder {
  private unclaimed = new Map<string, Job>();
  private claimed = new Set<Job>();
  private queue: Job[] = [];
  private running = new Set<Promise<void>>();
  private names = new Names();
  private routed = { ok: 0, error: 0 };
  private discovery!: Discovery;
  private timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private looking = false;
  private started = new Date().toISOString();

  constructor(
    private readonly o: WatchOptions,
    private readonly f: Folders,
    private readonly t: Timings,
    private readonly ownerOf: Owner,
    private readonly claims: Claims,
    private readonly sink: EventSink,
  ) {}

  get owner() {
    return this.ownerOf.id;
  }

  get mode() {
    return this.discovery.mode;
  }

  async start(internals: WatchInternals): Promise<this> {
    await this.adoptOrphans();
    this.discovery = await discover(this.f.in, { ...(this.o.poll !== undefined ? { poll: this.o.poll } : {}), pollMs: this.t.pollMs, ...(internals.watcherFactory ? { factory: internals.watcherFactory } : {}) }, {
      seen: (file) => this.seen(file),
      polling: (reason) => this.emit({ event: 'polling', reason }),
      error: (error) => this.emit({ event: 'warning', message: error.message }),
    });
    this.emit({ event: 'started', in: this.f.in, ok: this.f.ok, error: this.f.error, work: this.f.work, owner: this.owner, mode: this.discovery.mode });
    const tickMs = Math.max(20, Math.min(250, Math.floor(this.t.settleMs / 4)));
    this.timers.push(setInterval(() => this.tick(), tickMs));
    this.timers.push(setInterval(() => void this.heartbeat(), this.t.heartbeatMs));
    await this.heartbeat();
    return this;
  }

  private emit(event: WatchEvent): void {
    this.sink({ ...event, time: new Date().toISOString() } as WatchEvent & { time: string });
  }

  // Discovery ----------------------------------------------------------------------------------------------------

  private seen(file: string): void {
    if (this.stopping) return;
    const job = this.unclaimed.get(file);
    if (job) {
      if (job.stage === 'settling') job.due = Math.min(job.due, Date.now());
      return;
    }
    const now = Date.now();
    this.unclaimed.set(file, { name: path.basename(file), source: file, stage: 'settling', settle: new Settling(), due: now, arrived: now, checkMs: 0, missing: [], rounds: 0 });
  }

  private async adoptOrphans(): Promise<void> {
    for (const claim of await this.claims.orphans(this.t.staleMs)) {
      const now = Date.now();
      this.claimed.add({ name: claim.name, source: path.join(this.f.in, claim.name), claim, stage: 'settling', settle: new Settling(), due: now, arrived: now, checkMs: 0, missing: [], rounds: 0 });
      this.emit({ event: 'resumed', ticket: claim.name, claim: claim.dir });
    }
  }

  // The clock: look at what is due, start what is queued -----------------------------------------------------------

  private tick(): void {
    if (this.looking) return;
    this.looking = true;
    this.look().finally(() => {
      this.looking = false;
    });
  }

  private async look(): Promise<void> {
    const now = Date.now();
    const due: Job[] = [];
    for (const job of [...this.claimed, ...(this.stopping ? [] : this.unclaimed.values())]) {
      if (job.due > now) continue;
      if (job.stage === 'waiting') this.enqueue(job);
      else if (job.stage === 'settling') due.push(job);
    }
    // Stats run 64 at a time: enough to overlap their latency on a share, few enough for any file server.
    for (let i = 0; i < due.length; i += 64) await Promise.all(due.slice(i, i + 64).map((job) => this.lookAt(job)));
    this.drain();
  }

  private async lookAt(job: Job): Promise<void> {
    const file = job.claim?.file ?? job.source;
    const current = await snapshot(file);
    const now = Date.now();
    if (current === null) {
      // Gone from IN: taken by another watcher, or removed. Gone from a claim: placed before a crash; check() tidies up.
      if (job.claim) this.enqueue(job);
      else this.unclaimed.delete(job.source);
      return;
    }
    if (job.settle.look(current, now) >= this.t.settleMs) this.enqueue(job);
    else job.due = job.settle.nextLook(this.t.settleMs);
  }

  private enqueue(job: Job): void {
    job.stage = 'queued';
    this.queue.push(job);
  }

  private drain(): void {
    while (this.running.size < this.t.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      if (this.stopping && !job.claim) {
        job.stage = 'settling';
        continue;
      }
      job.stage = 'checking';
      const run = this.check(job).catch((error: unknown) => this.failed(job, error));
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.drain();
      });
    }
  }

  private failed(job: Job, error: unknown): void {
    this.emit({ event: 'failed', ticket: job.name, message: (error as Error).message });
    job.stage = job.claim && job.waitSince !== undefined ? 'waiting' : 'settling';
    job.due = Date.now() + this.t.recheckMs * 5;
  }

  // Checking ------------------------------------------------------------------------------------------------------

  /**
   * The ticket (or each part of a package) checked as `validate` checks it, read from wherever it is now, with
   * its base where it arrived. Without `withLocal`, no file it references is looked at (that is for after the claim).
   */
  private async validate(job: Job, withLocal: boolean): Promise<FileReport[] | { unreadable: string }> {
    const started = Date.now();
    const read = job.claim?.file ?? job.source;
    const local = withLocal && this.localChecks() ? this.o.local : undefined;
    const results = await validateSources([{ path: read, documentUri: pathToFileURL(job.source).href }], this.o.validate, this.o.maxBytes, local);
    job.checkMs += Date.now() - started;
    const files: FileReport[] = [];
    for (const r of results) {
      if ('reason' in r) return { unreadable: r.reason };
      files.push({ ...r, path: job.source + r.path.slice(read.length) }); // a package part keeps its " [part NAME]"
    }
    return files.length > 0 ? files : { unreadable: 'nothing read' };
  }

  private localChecks(): boolean {
    const l = this.o.local;
    return !!l && (l.checkExists || l.root !== undefined || l.views !== undefined);
  }

  /** Not a whole document yet, and not still for long enough to be called broken: look again later. */
  private notYetWhole(job: Job, files: FileReport[] | { unreadable: string }): boolean {
    const incomplete = 'unreadable' in files || files.some((file) => file.findings.some((f) => INCOMPLETE.has(f.code)));
    if (!incomplete || Date.now() - job.settle.since >= this.t.parseWaitMs) return false;
    job.stage = 'settling';
    job.due = job.settle.since + this.t.parseWaitMs;
    return true;
  }

  private async check(job: Job): Promise<void> {
    if (job.claim) {
      // No ticket in the claim: it was placed (the ticket is released first) or never moved in (a crash just after mkdir).
      if ((await snapshot(job.claim.file)) === null) return this.drop(job);
      const record = await readRecord(job.claim);
      if (record) return this.finishRoute(job, record);
    }
    let files = await this.validate(job, job.claim !== undefined);
    if (this.notYetWhole(job, files)) return;
    if (!job.claim) {
      if (!(await this.claim(job))) return;
      if (job.stage === 'settling') return; // what was claimed is not what was settled: settle it in the work folder
      if (this.localChecks()) files = await this.validate(job, true);
    }
    const reports = 'unreadable' in files ? [unreadableReport(job, files.unreadable)] : files;
    if (await this.waitForFiles(job, reports)) return;
    await this.route(job, reports);
  }

  private async claim(job: Job): Promise<boolean> {
    this.unclaimed.delete(job.source);
    if (this.stopping) return false;
    const claim = await this.claims.claim(job.source);
    if (!claim) return false;
    job.claim = claim;
    this.claimed.add(job);
    this.emit({ event: 'picked-up', ticket: job.name, claim: claim.dir, settledMs: Date.now() - job.arrived });
    if (!sameSnapshot(await snapshot(claim.file), job.settle.last)) {
      job.settle = new Settling();
      job.stage = 'settling';
      job.due = Date.now();
    }
    return true;
  }

  /** With --check-exists and --wait-for-files: true while the ticket waits for its files (missing, or not settled). */
  private async waitForFiles(job: Job, reports: FileReport[]): Promise<boolean> {
    const local = this.o.local;
    if (!local?.checkExists || this.t.waitForFilesMs <= 0) return false;
    const now = Date.now();
    job.waitSince ??= now;
    const timeLeft = job.waitSince + this.t.waitForFilesMs - now;
    const missing = reports.flatMap(missingOf);
    if (timeLeft <= 0) {
      job.missing = missing;
      return false;
    }
    if (missing.length > 0) {
      if (job.missing.length === 0) this.emit({ event: 'waiting', ticket: job.name, missing });
      job.missing = missing;
      job.refs = undefined;
      return this.waitAgain(job, now + Math.min(timeLeft, this.backoff(job)));
    }
    job.missing = [];
    const refs = new Map<string, Snapshot | null>();
    for (const p of reports.flatMap((r) => presentFiles(r, local))) refs.set(p, await snapshot(p));
    if (!job.refs || !sameRefs(job.refs, refs)) {
      job.refs = refs;
      job.refsSince = now;
    }
    if (now - job.refsSince! >= this.t.settleMs) return false;
    return this.waitAgain(job, Math.min(job.waitSince + this.t.waitForFilesMs, job.refsSince! + this.t.settleMs));
  }

  private backoff(job: Job): number {
    return Math.min(this.t.recheckMs * 5, this.t.recheckMs * 1.5 ** job.rounds++);
  }

  private waitAgain(job: Job, due: number): true {
    job.stage = 'waiting';
    job.due = due;
    return true;
  }

  // Routing -------------------------------------------------------------------------------------------------------

  private verdict(counts: Counts, job: Job): { to: Verdict; reason: string } {
    if (job.missing.length > 0) return { to: 'error', reason: `${job.missing.length} referenced file(s) still missing after ${this.t.waitForFilesMs} ms` };
    if (counts.error > 0) return { to: 'error', reason: `${counts.error} error finding(s)` };
    if (this.o.maxWarnings !== undefined && counts.warning > this.o.maxWarnings) return { to: 'error', reason: `${counts.warning} warnings, more than --max-warnings ${this.o.maxWarnings}` };
    return { to: 'ok', reason: counts.warning > 0 ? `${counts.warning} warning(s), no error` : 'no error finding' };
  }

  private async route(job: Job, reports: FileReport[]): Promise<void> {
    const claim = job.claim!;
    const counts = countFindings(reports.flatMap((r) => [...allFindings(r)]));
    const { to, reason } = this.verdict(counts, job);
    const formats = this.o.reportFormats ?? ['json'];
    await writeReports(claim.dir, reports, formats, this.o.toolVersion);
    const name = await this.names.propose(to === 'ok' ? this.f.ok : this.f.error, claim.name, routeSuffixes(formats));
    await this.finishRoute(job, { to, name, counts, formats, reason, temp: `.${path.basename(claim.dir)}.part` }, true);
  }

  private async finishRoute(job: Job, record: RouteRecord, fresh = false): Promise<void> {
    const routed = await place(job.claim!, record, { ok: this.f.ok, error: this.f.error }, this.names, fresh);
    await this.claims.release(job.claim!);
    this.claimed.delete(job);
    this.routed[record.to]++;
    const now = Date.now();
    this.emit({ event: record.to, ticket: job.name, to: routed.ticket, report: routed.report, reason: record.reason, counts: record.counts, ms: { total: now - job.arrived, check: job.checkMs, wait: job.waitSince !== undefined ? now - job.waitSince : 0 } });
    const program = record.to === 'ok' ? this.o.onOk : this.o.onError;
    if (program) {
      const r = await runHook(program, routed.ticket, routed.report);
      this.emit({ event: 'hook', ticket: job.name, program, code: r.code, signal: r.signal, ...(r.error ? { error: r.error } : {}) });
    }
  }

  private async drop(job: Job): Promise<void> {
    if (job.claim) await this.claims.release(job.claim);
    this.claimed.delete(job);
  }

  // Status and stopping ---------------------------------------------------------------------------------------------

  private status(): Status {
    const settling = [...this.unclaimed.values(), ...this.claimed].filter((j) => j.stage === 'settling' || j.stage === 'queued');
    const all = [...this.unclaimed.values(), ...this.claimed];
    return {
      owner: this.owner,
      pid: process.pid,
      in: this.f.in,
      mode: this.discovery.mode,
      started: this.started,
      updated: new Date().toISOString(),
      stopping: this.stopping,
      routed: { ...this.routed },
      settling: { count: settling.length, tickets: settling.slice(0, LIST_LIMIT).map((j) => j.name) },
      checking: all.filter((j) => j.stage === 'checking').slice(0, LIST_LIMIT).map((j) => j.name),
      waiting: [...this.claimed].filter((j) => j.stage === 'waiting').slice(0, LIST_LIMIT).map((j) => ({
        ticket: j.name,
        since: new Date(j.waitSince ?? j.arrived).toISOString(),
        until: new Date((j.waitSince ?? j.arrived) + this.t.waitForFilesMs).toISOString(),
        missing: j.missing,
      })),
    };
  }

  private async heartbeat(): Promise<void> {
    const files = [path.join(this.claims.folder, STATUS_NAME), ...(this.o.statusFile ? [path.resolve(this.o.statusFile)] : [])];
    await writeStatus(files, this.status());
    if (!this.stopping) await this.adoptOrphans().catch((error: unknown) => this.emit({ event: 'warning', message: (error as Error).message }));
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.emit({ event: 'stopping', inFlight: this.running.size });
    for (const timer of this.timers) clearInterval(timer);
    await this.discovery.close();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    if (this.o.statusFile) await writeStatus([path.resolve(this.o.statusFile)], this.status());
    const waiting = this.claimed.size;
    await rm(path.join(this.claims.folder, STATUS_NAME), { force: true });
    await this.claims.close();
    retireOwner(this.ownerOf);
    this.emit({ event: 'stopped', ok: this.routed.ok, error: this.routed.error, waiting });
  }
}

function sameRefs(a: Map<string, Snapshot | null>, b: Map<string, Snapshot | null>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!b.has(k) || (v === null ? w !== null : !sameSnapshot(v, w))) return false;
  }
  return true;
}

/** A ticket that could not be read at all: routed to ERROR with one finding that says why. */
function unreadableReport(job: Job, reason: string): FileReport {
  return {
    path: job.source,
    encoding: 'unknown',
    references: [],
    findings: [{ code: 'file-unreadable', severity: 'error', message: `The ticket could not be read: ${reason}`, spec: 'JDF appendix 4.6', line: 1, column: 1 }],
  };
}
