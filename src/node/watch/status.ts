// The status file a monitor can read: what this watcher is doing now (settling, checking, waiting for files)
// and what it has done. Rewritten whole (a temporary renamed over it) on every heartbeat; its age is the
// heartbeat other watchers go by. The temporary has a random name and is created exclusively (whole.ts), so a
// link planted where it would go is never written through.
import type { Job } from './job.js';
import type { Missing } from './referenced.js';
import { writeTextWhole } from './whole.js';

export interface Status {
  owner: string;
  pid: number;
  in: string;
  mode: 'events' | 'polling';
  started: string;
  updated: string;
  stopping: boolean;
  routed: { ok: number; error: number };
  settling: { count: number; tickets: string[] };
  checking: string[];
  waiting: Array<{ ticket: string; since: string; until: string; missing: Missing[]; unsettled: string[] }>;
  /** Names in IN that are not regular files (symbolic links, FIFOs, folders): left where they are, never read. */
  skipped: Array<{ ticket: string; reason: string }>;
  /** What is in IN but not taken (neither a ticket nor a job package, or a folder): reported once, left where it is. */
  ignored: Array<{ name: string; reason: string }>;
  /** Given up (failed every attempt, not even routed to ERROR): where each is left, and why. */
  held: Array<{ ticket: string; left: string; why: string }>;
}

/** At most this many names per list: a monitor wants a picture, not a copy of the folder. */
export const LIST_LIMIT = 100;

/** The status's lists: tickets settling (or queued), being checked, and waiting for their files. */
export function jobLists(unclaimed: readonly Job[], claimed: readonly Job[], waitForFilesMs: number, held: readonly Job[] = []): Pick<Status, 'settling' | 'checking' | 'waiting' | 'skipped' | 'held'> {
  const all = [...unclaimed, ...claimed];
  const settling = all.filter((j) => j.stage === 'settling' || j.stage === 'queued');
  return {
    settling: { count: settling.length, tickets: settling.slice(0, LIST_LIMIT).map((j) => j.name) },
    checking: all.filter((j) => j.stage === 'checking').slice(0, LIST_LIMIT).map((j) => j.name),
    waiting: all.filter((j) => j.stage === 'waiting').slice(0, LIST_LIMIT).map((j) => ({
      ticket: j.name,
      since: new Date(j.waitSince ?? j.arrived).toISOString(),
      until: new Date((j.waitSince ?? j.arrived) + waitForFilesMs).toISOString(),
      missing: j.missing,
      unsettled: j.unsettled,
    })),
    skipped: unclaimed.filter((j) => j.skipped).slice(0, LIST_LIMIT).map((j) => ({ ticket: j.name, reason: j.skipped!.reason })),
    held: held.slice(0, LIST_LIMIT).map((j) => ({ ticket: j.name, left: j.claim?.file ?? j.source, why: j.heldFor ?? '' })),
  };
}

export async function writeStatus(files: readonly string[], status: Status): Promise<void> {
  const text = JSON.stringify(status, null, 2) + '\n';
  for (const file of files) await writeTextWhole(file, text, 0o666).catch(() => {});
}
