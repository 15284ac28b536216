// The event log: one JSON object per event (the CLI prints one line each). Timings are milliseconds.
import type { Counts } from '../../report/check-text.js';
import type { FirstError, Missing } from './referenced.js';

export type WatchEvent =
  | { event: 'started'; in: string; ok: string; error: string; work: string; owner: string; mode: 'events' | 'polling' }
  | { event: 'polling'; reason: string }
  | { event: 'picked-up'; ticket: string; claim: string; settledMs: number }
  | { event: 'resumed'; ticket: string; claim: string }
  | { event: 'skipped'; ticket: string; reason: string; left: string }
  /** Something in IN that is not taken (neither a ticket nor a job package, or a folder): said once, left where it is. */
  | { event: 'ignored'; name: string; reason: string; left: string }
  | { event: 'waiting'; ticket: string; missing: Missing[]; unsettled?: string[] }
  /** `first`: the error that decided ERROR (the first no arriving file could change, else the first missing file, else the first error), with its code and message. */
  | { event: 'ok' | 'error'; ticket: string; to: string; report: string; reason: string; first?: FirstError; counts: Counts; ms: { total: number; check: number; wait: number } }
  | { event: 'hook'; ticket: string; program: string; code: number | null; signal: string | null; error?: string }
  | { event: 'failed'; ticket: string; message: string; attempt: number; final: boolean }
  | { event: 'warning'; message: string }
  /** Something in the work area the watcher did not make (or not as it made it): left as it is, never followed. */
  | { event: 'untrusted'; path: string; reason: string }
  /** The work folder is no longer the safe folder it was at start: the watcher stops, touching nothing in it. */
  | { event: 'work-unsafe'; work: string; reason: string }
  | { event: 'stopping'; inFlight: number }
  | { event: 'stopped'; ok: number; error: number; waiting: number };

export type TimedEvent = WatchEvent & { time: string };

export type EventSink = (event: TimedEvent) => void;
