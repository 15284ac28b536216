// The hot folder: tickets appear in IN, settle, parse, are claimed into the work folder, wait for their files,
// are checked as `validate` checks them, and are routed to OK or ERROR with their reports. Each stage is a
// room of its own (discover, settle, checking, claim, waiting, route, status, ...); this file only moves tickets
// between them.
// Long because: the Watcher is one state machine (its job sets, queue and timers are shared by every step); the
// rooms above hold the steps' logic, and what is left is the moving between them.
import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { countFindings } from '../../report/check-text.js';
import { allFindings, type FileReport } from '../../report/report.js';
import { internalErrorReport } from '../batch.js';
import { folderLocal, localChecks, noTicketReport, notYetWhole, unreadableReport, validateJob } from './checking.js';
import { Claims } from './claim.js';
import { discover, type Discovery, type WatcherFactory } from './discover.js';
import type { EventSink, WatchEvent } from './events.js';
import { OLD_DEFAULT_WORK, prepareFolders, workChanged, type Folders } from './folders.js';
import { runHook } from './hooks.js';
import { newJob, type Job } from './job.js';
import { Names, shortHash } from './names.js';
import { timingsOf, type Timings, type WatchOptions } from './options.js';
import { newOwner, retireOwner, STATUS_NAME, type Owner } from './owner.js';
import { writeReports } from './reports.js';
import { place, readRecord, routeSuffixes, unplace, verdictOf, type RouteRecord } from './route.js';
import { entrySnapshot, sameSnapshot, Settling, type NotRegular } from './settle.js';
import { Ignored } from './ignored.js';
import { jobLists, LIST_LIMIT, writeStatus, type Status } from './status.js';
import { UntrustedError } from './trust.js';
import { firstError, incurable, missingOf, type FirstError } from './referenced.js';
import { folderSnapshot, ticketOf } from './job-folder.js';
import { markUnsettled, waitForFiles } from './waiting.js';

/** A ticket whose handling fails this many times in a row (a permanent error: a folder gone, a name refused) is given up. */
const MAX_ATTEMPTS = 5;

/** How many tickets are where now: settling in IN (or queued), waiting for their files, being checked, routed. */
export interface Tally {
  settling: number;
  waiting: number;
  checking: number;
  ok: number;
  error: number;
}

export interface HotFolder {
  readonly owner: string;
  /** The running count, for a terminal. */
  tally(): Tally;
  readonly mode: 'events' | 'polling';
  /** Stops taking tickets, finishes those being checked, and stops. Tickets waiting for files stay claimed for the next start. */
  stop(): Promise<void>;
  /** Resolves once stopped: 'stopped' after stop(), 'unsafe' when the watcher stopped itself because its work folder changed (the work-unsafe event). */
  readonly ended: Promise<'stopped' | 'unsafe'>;
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

class Watcher implements HotFolder {
  private unclaimed = new Map<string, Job>();
  private claimed = new Set<Job>();
  /** Given up after MAX_ATTEMPTS failures and not routed: left where they are (IN or the claim) until the next start. */
  private held = new Set<Job>();
  private queue: Job[] = [];
  private running = new Set<Promise<void>>();
  private names = new Names();
  private ignored: Ignored;
  private routed = { ok: 0, error: 0 };
  private discovery!: Discovery;
  private timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private looking = false;
  private started = new Date().toISOString();
  /** Why the work folder is not to be touched any more, once it is not the safe folder it was at start. */
  private unsafe: string | undefined;
  /** What in the work area was reported as untrusted: each once. */
  private distrusted = new Set<string>();
  private end!: (how: 'stopped' | 'unsafe') => void;
  readonly ended = new Promise<'stopped' | 'unsafe'>((resolve) => (this.end = resolve));

  constructor(
    private readonly o: WatchOptions,
    private readonly f: Folders,
    private readonly t: Timings,
    private readonly ownerOf: Owner,
    private readonly claims: Claims,
    private readonly sink: EventSink,
  ) {
    this.ignored = new Ignored(t.settleMs);
  }

  get owner() {
    return this.ownerOf.id;
  }

  get mode() {
    return this.discovery.mode;
  }

  async start(internals: WatchInternals): Promise<this> {
    await this.adoptOrphans();
    this.discovery = await discover(this.f.in, { ...(this.o.poll !== undefined ? { poll: this.o.poll } : {}), pollMs: this.t.pollMs, ...(internals.watcherFactory ? { factory: internals.watcherFactory } : {}) }, {
      seen: (file, folder) => this.seen(file, folder),
      others: (files) => this.notTaken(files),
      polling: (reason) => this.emit({ event: 'polling', reason }),
      error: (error) => this.emit({ event: 'warning', message: error.message }),
    });
    this.emit({ event: 'started', in: this.f.in, ok: this.f.ok, error: this.f.error, work: this.f.work, owner: this.owner, mode: this.discovery.mode });
    await this.oldWorkFolder();
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

  private seen(file: string, folder = false): void {
    if (this.stopping) return;
    const job = this.unclaimed.get(file);
    if (job) {
      if (job.stage === 'settling' || job.stage === 'skipped') job.due = Math.min(job.due, Date.now());
      return;
    }
    this.unclaimed.set(file, newJob(file, undefined, folder));
  }

  /** What in IN is not taken (a PDF alone, good.jdf.tmp, a folder): reported once each, and left. */
  private async notTaken(files: string[]): Promise<void> {
    if (this.stopping) return;
    for (const x of await this.ignored.look(files).catch(() => [])) this.emit({ event: 'ignored', name: x.name, reason: x.reason, left: x.left });
  }

  /** The work folder in IN of earlier versions: producers can write there, so nothing in it is taken up; said once at start. */
  private async oldWorkFolder(): Promise<void> {
    if (this.o.work !== undefined) return;
    const old = path.join(this.f.in, OLD_DEFAULT_WORK);
    if (!(await lstat(old).catch(() => null))) return;
    this.emit({ event: 'warning', message: `${old} was the default work folder before it moved to ${this.f.work}; producers can write there, so no claim in it is taken up: look at what is in it, put the tickets you trust back in IN, and remove it` });
  }

  /** Something in the work area that is not ours: reported once, left as it is. */
  private distrust(error: UntrustedError): void {
    if (this.distrusted.has(error.path)) return;
    this.distrusted.add(error.path);
    this.emit({ event: 'untrusted', path: error.path, reason: error.reason });
  }

  private async adoptOrphans(): Promise<void> {
    for (const claim of await this.claims.orphans(this.t.staleMs, (error) => this.distrust(error))) {
      const folder = (await lstat(claim.file).catch(() => null))?.isDirectory() ?? false;
      this.claimed.add(newJob(path.join(this.f.in, claim.name), claim, folder));
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
      else if (job.stage === 'settling' || job.stage === 'skipped' || job.stage === 'held') due.push(job);
    }
    // Stats run 64 at a time: enough to overlap their latency on a share, few enough for any file server.
    for (let i = 0; i < due.length; i += 64) await Promise.all(due.slice(i, i + 64).map((job) => this.lookAt(job)));
    this.drain();
  }

  private async lookAt(job: Job): Promise<void> {
    const file = job.claim?.file ?? job.source;
    const current = job.folder ? await folderSnapshot(file) : await entrySnapshot(file);
    const now = Date.now();
    if (current === null) {
      // Gone from IN: taken by another watcher, or removed. Gone from a claim: placed before a crash; check() tidies up.
      this.held.delete(job);
      if (job.claim) this.enqueue(job);
      else this.unclaimed.delete(job.source);
      return;
    }
    if (job.stage === 'held') {
      // Given up in IN: looked at again only to see whether another file has taken its place.
      if (!('notRegular' in current) && sameSnapshot(current, job.settle.last)) {
        job.due = now + this.t.pollMs;
        return;
      }
      this.held.delete(job);
      this.unclaimed.set(job.source, newJob(job.source));
      return;
    }
    if ('notRegular' in current) {
      // A job folder's name that is not a folder any more: forgotten here; the sweep says what it is now.
      if (job.folder && !job.claim) return void this.unclaimed.delete(job.source);
      return this.skip(job, current);
    }
    if (job.skipped) {
      // A regular file under the name now: a ticket like any other.
      job.skipped = undefined;
      job.stage = 'settling';
    }
    if (job.settle.look(current, now) >= this.t.settleMs) this.enqueue(job);
    else job.due = job.settle.nextLook(this.t.settleMs);
  }

  /**
   * A symbolic link (or a FIFO, a device, a folder) under a ticket's name is not taken: it is left in IN and
   * reported once, and what it points to is never read. It is looked at again every poll interval, so that a
   * regular file put in its place is taken, and a removed one forgotten.
   */
  private async skip(job: Job, entry: NotRegular): Promise<void> {
    if (job.claim) return this.giveBack(job, entry);
    if (job.skipped?.ino !== entry.ino) this.emit({ event: 'skipped', ticket: job.name, reason: entry.notRegular, left: job.source });
    job.skipped = { ino: entry.ino, reason: entry.notRegular };
    job.stage = 'skipped';
    job.due = Date.now() + this.t.pollMs;
  }

  /** Not a regular file in a claim (swapped into IN just before the rename): back to IN untouched, and skipped there. */
  private async giveBack(job: Job, entry: NotRegular): Promise<void> {
    const claim = job.claim!;
    this.claimed.delete(job);
    if (!(await this.claims.giveBack(claim, job.source))) {
      // IN has that name again: it stays in the claim, and the next start tries again.
      this.emit({ event: 'skipped', ticket: job.name, reason: entry.notRegular, left: claim.file });
      return;
    }
    const back = newJob(job.source);
    this.unclaimed.set(job.source, back);
    await this.skip(back, entry);
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
      const run = this.check(job).catch((error: unknown) => this.untrusted(job, error)).catch((error: unknown) => this.failed(job, error)).catch((error: unknown) => this.gaveUp(job, error));
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.drain();
      });
    }
  }

  /** A claim holding what we did not write (a route or wait record): reported, left as it is, not tried again until the next start. */
  private untrusted(job: Job, error: unknown): void {
    if (!(error instanceof UntrustedError)) throw error;
    this.distrust(error);
    this.claimed.delete(job);
    this.held.add(job);
    job.stage = 'held';
    job.due = Number.POSITIVE_INFINITY;
    job.heldFor = error.message;
  }

  /** One more failed attempt: tried again a little later, or after MAX_ATTEMPTS routed to ERROR with what went wrong. */
  private async failed(job: Job, error: unknown): Promise<void> {
    const message = (error as Error).message;
    job.failures = (job.failures ?? 0) + 1;
    this.emit({ event: 'failed', ticket: job.name, message, attempt: job.failures, final: job.failures >= MAX_ATTEMPTS });
    if (job.failures < MAX_ATTEMPTS) {
      job.stage = job.claim && job.waitSince !== undefined ? 'waiting' : 'settling';
      job.due = Date.now() + this.t.recheckMs * 5;
      return;
    }
    if (!job.claim) throw error; // not claimed: it stays in IN
    const reason = `gave up after ${MAX_ATTEMPTS} failed attempts: ${message}`;
    await unplace(job.claim, { ok: this.f.ok, error: this.f.error });
    await this.route(job, [{ path: job.source, ...internalErrorReport(new Error(reason), this.o.validate.profile, false) }], { to: 'error', reason });
  }

  /** Not even routed to ERROR: left where it is (and said so once), not tried again until the next start. */
  private gaveUp(job: Job, error: unknown): void {
    const left = job.claim?.file ?? job.source;
    this.emit({ event: 'warning', message: `${job.name} is left at ${left}, not tried again until the next start: ${(error as Error).message}` });
    if (job.claim) this.claimed.delete(job); // its claim folder stays: the next start takes it up
    this.held.add(job); // one in IN also stays in `unclaimed`, so that the sweep does not start it again
    job.stage = 'held';
    job.due = Date.now() + this.t.pollMs; // only to notice another file under its name (see lookAt)
    job.heldFor = (error as Error).message;
  }

  // Checking ------------------------------------------------------------------------------------------------------

  private async check(job: Job): Promise<void> {
    if (this.unsafe !== undefined) return; // the work folder is not to be touched: the claim stays for the next start
    if (job.claim) {
      // No ticket in the claim: it was placed (the ticket is released first) or never moved in (a crash just after mkdir).
      const entry = job.folder ? await folderSnapshot(job.claim.file) : await entrySnapshot(job.claim.file);
      if (entry === null) return this.drop(job);
      if ('notRegular' in entry) return this.giveBack(job, entry);
      const record = await readRecord(job.claim);
      if (record) return this.finishRoute(job, record);
    }
    if (job.folder) return this.checkFolder(job);
    let files = await validateJob(job, this.o, job.claim !== undefined);
    if (notYetWhole(job, files, this.t.parseWaitMs)) return;
    if (!job.claim) {
      if (!(await this.claim(job))) return;
      if (job.stage === 'settling') return; // what was claimed is not what was settled: settle it in the work folder
      if (localChecks(this.o.local)) files = await validateJob(job, this.o, true);
    }
    const reports = 'unreadable' in files ? [unreadableReport(job, files.unreadable)] : files;
    if (await waitForFiles(job, reports, this.o.local, this.t, (event) => this.emit(event))) return;
    if (job.unsettled.length > 0) markUnsettled(job, reports, this.o.local!, this.t);
    await this.route(job, reports);
  }

  /**
   * A job folder (job-folder.ts): its one ticket found, checked with the folder as its root; with
   * --wait-for-files it waits in IN for its files, settles again as a whole, and only then is claimed.
   */
  private async checkFolder(job: Job): Promise<void> {
    const found = await ticketOf(job.claim?.file ?? job.source).catch(() => null);
    if (found === null && !job.claim) return void this.unclaimed.delete(job.source); // gone from IN
    if (found === null || 'found' in found) {
      if (!job.claim && (!(await this.claim(job)) || job.stage === 'settling')) return;
      return this.route(job, [noTicketReport(job, found?.found ?? [], this.o.validate.profile)]);
    }
    job.ticket = found.ticket;
    const waits = !!this.o.local?.checkExists && this.t.waitForFilesMs > 0;
    let files = await validateJob(job, this.o, job.claim !== undefined || waits);
    if (notYetWhole(job, files, this.t.parseWaitMs)) return;
    let reports = 'unreadable' in files ? [unreadableReport(job, files.unreadable)] : files;
    if (!job.claim) {
      if (waits && (await waitForFiles(job, reports, await folderLocal(job, this.o.local!), this.t, (event) => this.emit(event)))) return;
      const now = job.waitSince !== undefined ? await folderSnapshot(job.source) : null;
      if (now !== null && ('notRegular' in now || !sameSnapshot(now, job.settle.last))) {
        // Files arrived while it waited: the folder settles again as a whole before it is taken.
        job.settle = new Settling();
        job.stage = 'settling';
        job.due = Date.now();
        return;
      }
      if (!(await this.claim(job))) return;
      if (job.stage === 'settling') return;
      if (localChecks(this.o.local)) {
        files = await validateJob(job, this.o, true);
        reports = 'unreadable' in files ? [unreadableReport(job, files.unreadable)] : files;
      }
    }
    // Waited for in IN already: what is missing now stays missing (nothing reaches a claimed folder).
    job.missing = job.waitSince !== undefined ? reports.flatMap(missingOf) : [];
    job.unsettled = [];
    await this.route(job, reports);
  }

  private async claim(job: Job): Promise<boolean> {
    if (this.stopping) {
      this.unclaimed.delete(job.source);
      return false;
    }
    // A claim that throws leaves the job in `unclaimed`, counting its failures (a new job would start from none).
    const claim = await this.claims.claim(job.source);
    this.unclaimed.delete(job.source);
    if (!claim) return false;
    job.claim = claim;
    this.claimed.add(job);
    this.emit({ event: 'picked-up', ticket: job.name, claim: claim.dir, settledMs: Date.now() - job.arrived });
    const entry = job.folder ? await folderSnapshot(claim.file) : await entrySnapshot(claim.file);
    if (entry !== null && 'notRegular' in entry) {
      await this.giveBack(job, entry);
      return false;
    }
    if (!sameSnapshot(entry, job.settle.last)) {
      job.settle = new Settling();
      job.stage = 'settling';
      job.due = Date.now();
    }
    return true;
  }

  // Routing -------------------------------------------------------------------------------------------------------

  private async route(job: Job, reports: FileReport[], verdict?: { to: 'error'; reason: string }): Promise<void> {
    const claim = job.claim!;
    const counts = countFindings(reports.flatMap((r) => [...allFindings(r)]));
    // The error to name: the first no file could change, else the first file still missing, else the first error.
    const first = verdict ? undefined : (incurable(reports) ?? (job.missing[0] ? { code: job.missing[0].code, message: job.missing[0].message } : firstError(reports)));
    const { to, reason } = verdict ?? verdictOf(counts, job.missing.length, this.t.waitForFilesMs, this.o.maxWarnings, job.unsettled.length, first);
    const formats = this.o.reportFormats ?? ['json'];
    if (this.unsafe !== undefined) return;
    await writeReports(claim.dir, reports, formats, this.o.toolVersion);
    const name = await this.names.propose(to === 'ok' ? this.f.ok : this.f.error, claim.name, routeSuffixes(formats));
    await this.finishRoute(job, { to, name, counts, formats, reason, temp: `.jdf-filespec-${shortHash(claim.dir)}.part` }, true, to === 'error' ? first : undefined);
  }

  private async finishRoute(job: Job, record: RouteRecord, fresh = false, first?: FirstError): Promise<void> {
    if (this.unsafe !== undefined) return;
    const routed = await place(job.claim!, record, { ok: this.f.ok, error: this.f.error }, this.names, fresh);
    await this.claims.release(job.claim!);
    this.claimed.delete(job);
    this.routed[record.to]++;
    const now = Date.now();
    const ms = { total: now - job.arrived, check: job.checkMs, wait: job.waitSince !== undefined ? now - job.waitSince : 0 };
    this.emit({ event: record.to, ticket: job.name, to: routed.ticket, report: routed.report, reason: record.reason, ...(first ? { first } : {}), counts: record.counts, ms });
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

  tally(): Tally {
    const tally: Tally = { settling: 0, waiting: 0, checking: 0, ...this.routed };
    for (const job of [...this.unclaimed.values(), ...this.claimed]) {
      if (job.stage === 'settling' || job.stage === 'queued') tally.settling++;
      else if (job.stage === 'waiting') tally.waiting++;
      else if (job.stage === 'checking') tally.checking++;
    }
    return tally;
  }

  // Status and stopping ---------------------------------------------------------------------------------------------

  private status(): Status {
    return {
      owner: this.owner,
      pid: process.pid,
      in: this.f.in,
      mode: this.discovery.mode,
      started: this.started,
      updated: new Date().toISOString(),
      stopping: this.stopping,
      routed: { ...this.routed },
      ...jobLists([...this.unclaimed.values()], [...this.claimed], this.t.waitForFilesMs, [...this.held]),
      ignored: this.ignored.list(LIST_LIMIT),
    };
  }

  /**
   * Every heartbeat: the work folder (and this owner's folder in it) must still be the folder made or found at
   * start, owned by us and writable by no one else; else the watcher stops without touching it again.
   */
  private async heartbeat(): Promise<void> {
    if (this.stopping) return;
    const changed = (await workChanged(this.f)) ?? (await this.claims.changed());
    if (changed !== null) return this.stopUnsafe(changed);
    const files = [path.join(this.claims.folder, STATUS_NAME), ...(this.o.statusFile ? [path.resolve(this.o.statusFile)] : [])];
    await writeStatus(files, this.status());
    if (!this.stopping) await this.adoptOrphans().catch((error: unknown) => this.emit({ event: 'warning', message: (error as Error).message }));
  }

  private async stopUnsafe(reason: string): Promise<void> {
    if (this.unsafe !== undefined) return;
    this.unsafe = reason;
    this.emit({ event: 'work-unsafe', work: this.f.work, reason });
    await this.stop();
  }

  async stop(): Promise<void> {
    if (this.stopping) return this.ended.then(() => {});
    this.stopping = true;
    this.emit({ event: 'stopping', inFlight: this.running.size });
    for (const timer of this.timers) clearInterval(timer);
    await this.discovery.close();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    if (this.o.statusFile) await writeStatus([path.resolve(this.o.statusFile)], this.status());
    const waiting = this.claimed.size;
    if (this.unsafe === undefined) {
      await rm(path.join(this.claims.folder, STATUS_NAME), { force: true }).catch(() => {}); // the work folder may be gone
      await this.claims.close();
    }
    retireOwner(this.ownerOf);
    this.emit({ event: 'stopped', ok: this.routed.ok, error: this.routed.error, waiting });
    this.end(this.unsafe === undefined ? 'stopped' : 'unsafe');
  }
}
