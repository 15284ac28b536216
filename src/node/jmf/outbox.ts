// The outbox: a folder per queue entry holding the submission as it came, report.json, report.sarif and
// status.json. Every file is written to a hidden temporary and renamed into place, so another instance reading
// the same outbox sees a file whole or not at all; nothing about a job is kept in memory.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EntryOf } from '../../jmf/answer.js';

/** What status.json holds. */
export interface EntryRecord extends EntryOf {
  /** Where the job went: the downstream's answer, the hot-folder file. */
  forwarded?: { url: string; returnCode?: number; httpStatus?: number };
  hotFolder?: string;
  returnJmf?: string;
}

/** A queue entry ID we made, or one a sender gives back: letters, digits, ".", "_" and "-", not starting with "." (never a path). */
export function safeId(id: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(id);
}

export function newId(): string {
  return randomUUID();
}

export function entryDir(outbox: string, id: string): string {
  return path.join(outbox, id);
}

/** Writes `file` whole: a hidden temporary beside it, flushed, then renamed over it. */
export async function writeAtomic(file: string, write: (append: (text: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await write(async (text) => {
      await handle.write(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
    });
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, file);
}

export async function writeRecord(outbox: string, record: EntryRecord): Promise<void> {
  const dir = entryDir(outbox, record.queueEntryId);
  await mkdir(dir, { recursive: true });
  await writeAtomic(path.join(dir, 'status.json'), (append) => append(JSON.stringify(record, null, 2) + '\n'));
}

export async function readRecord(outbox: string, id: string): Promise<EntryRecord | undefined> {
  if (!safeId(id)) return undefined;
  try {
    return JSON.parse(await readFile(path.join(entryDir(outbox, id), 'status.json'), 'utf8')) as EntryRecord;
  } catch {
    return undefined;
  }
}

/** Every entry with a status, oldest submission first. */
export async function listRecords(outbox: string): Promise<EntryRecord[]> {
  let names: string[];
  try {
    names = await readdir(outbox);
  } catch {
    return [];
  }
  const records = await Promise.all(names.filter(safeId).map((n) => readRecord(outbox, n)));
  return records.filter((r): r is EntryRecord => r !== undefined).sort((a, b) => (a.submitted ?? '').localeCompare(b.submitted ?? '') || a.queueEntryId.localeCompare(b.queueEntryId));
}
