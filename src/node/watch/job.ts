// A ticket in the watcher's hands: where it arrived, its claim once taken, and where it is on its way.
import path from 'node:path';
import type { Claim } from './claim.js';
import type { Missing } from './referenced.js';
import { Settling } from './settle.js';
import type { RefLook } from './waiting.js';

export interface Job {
  name: string;
  /** Where it arrived (IN/name): the base of its relative references, wherever it is now. */
  source: string;
  /** A job folder (job-folder.ts): `source` is the folder; `ticket` its ticket's name, once found. */
  folder?: true;
  ticket?: string;
  claim?: Claim;
  stage: 'settling' | 'queued' | 'checking' | 'waiting' | 'skipped' | 'held';
  settle: Settling;
  /** When to look at it next. */
  due: number;
  arrived: number;
  checkMs: number;
  waitSince?: number;
  /** Whether waitSince is kept in the claim folder (waiting.json). */
  waitRecorded?: boolean;
  missing: Missing[];
  /** The referenced files present at the last look, each on its own settle clock. */
  refs?: Map<string, RefLook> | undefined;
  /** Referenced files there but not settled at the last look (local paths). */
  unsettled: string[];
  /** Whether the waiting event for files still changing was emitted. */
  saidUnsettled?: boolean;
  rounds: number;
  /** Failed attempts so far (an exception while checking or routing). */
  failures?: number;
  /** Why it was given up, when it was. */
  heldFor?: string;
  /** Not a regular file (a symbolic link, a FIFO, ...): left in IN, reported once per inode. */
  skipped?: { ino: number; reason: string } | undefined;
}

/** A ticket just seen in IN (IN/name), or one taken up again in its claim folder; it settles first. */
export function newJob(source: string, claim?: Claim, folder = false): Job {
  const now = Date.now();
  return { name: claim?.name ?? path.basename(source), source, ...(folder ? { folder: true as const } : {}), ...(claim ? { claim } : {}), stage: 'settling', settle: new Settling(), due: now, arrived: now, checkMs: 0, missing: [], unsettled: [], rounds: 0 };
}
