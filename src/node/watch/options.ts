// watch: what a hot folder is told (folders, timings, validation), and the defaults.
import type { ValidateOptions } from '../../ticket/validate.js';
import type { LocalFileOptions } from '../local-files.js';

export type ReportFormat = 'json' | 'sarif' | 'txt';

export interface WatchOptions {
  /** The hot folder: tickets dropped here (its direct children) are picked up. */
  in: string;
  ok: string;
  error: string;
  /**
   * Claimed tickets live here until routed: on IN's file system, owned by the watcher's user and writable by no
   * one else, in folders no one else can write (unless sticky). Default: PARENT/.NAME.jdf-filespec beside IN.
   */
  work?: string;
  /** A ticket is taken when its size and modification time have not changed for this long. Default 2,000 ms. */
  settleMs?: number;
  /** A settled ticket that does not parse yet is given this long to become complete. Default 30,000 ms. */
  parseWaitMs?: number;
  /** With --check-exists: wait this long for missing referenced files to appear and settle. Default 0 (no wait). */
  waitForFilesMs?: number;
  /** How often a ticket waiting for files looks again (it backs off to five times this). Default 1,000 ms. */
  recheckMs?: number;
  /** Poll instead of file-system events (network shares). Default: chosen from the file system, and when events stop. */
  poll?: boolean;
  /** Polling interval and the safety sweep of IN. Default 1,000 ms. */
  pollMs?: number;
  /** Tickets checked at once. Default 4. */
  concurrency?: number;
  /** More warnings than this send a ticket to ERROR. Default: warnings never do. */
  maxWarnings?: number;
  /** Reports written beside the ticket: json always, sarif and txt on request. */
  reportFormats?: ReportFormat[];
  /** Programs run after routing, with the ticket's and the report's paths as arguments (no shell). */
  onOk?: string;
  onError?: string;
  /** A copy of the status written to this file as well as the work folder. */
  statusFile?: string;
  /** Heartbeat of the status file; a watcher whose status is older than staleMs is taken as gone. */
  heartbeatMs?: number;
  staleMs?: number;
  /** Validation as in `validate`. */
  validate: ValidateOptions;
  maxBytes: number;
  local?: LocalFileOptions;
  toolVersion: string;
}

export interface Timings {
  settleMs: number;
  parseWaitMs: number;
  waitForFilesMs: number;
  recheckMs: number;
  pollMs: number;
  heartbeatMs: number;
  staleMs: number;
  concurrency: number;
}

export function timingsOf(o: WatchOptions): Timings {
  return {
    settleMs: o.settleMs ?? 2000,
    parseWaitMs: o.parseWaitMs ?? 30_000,
    waitForFilesMs: o.waitForFilesMs ?? 0,
    recheckMs: o.recheckMs ?? 1000,
    pollMs: o.pollMs ?? 1000,
    heartbeatMs: o.heartbeatMs ?? 2000,
    staleMs: o.staleMs ?? 30_000,
    concurrency: Math.max(1, o.concurrency ?? 4),
  };
}
