// One submission, one check and one forward: a command's ID with its sender (JDF 1.x 4.1: JMF/@SenderID and
// Command/@ID; XJDF 2.x: the XJMF Header's DeviceID and the command's Header/@ID) names a submission. Its first
// handler claims it in the shared outbox (.claims/KEY/claim.0, made whole and linked into place: link fails when
// the name exists, on every instance sharing the folder), keeps its answer there (answer.json), and a repeat
// (a sender's or a load balancer's retry) gets that answer, or "busy" while the first is still in flight. A claim
// older than staleMs with no answer belonged to an instance that died: the next claim.N+1, linked the same way,
// takes it over (one taker wins), with the same QueueEntryID. The moment a job has been passed on, what became of
// it is noted there too (passed-on.json, before the slower writes of its status and answer): a taker finds it and
// finishes the job's record and answer without passing it on again. Only a death while the forward itself is on
// the wire (sent, its answer not yet noted) leaves the taker to pass it on a second time.
import { createHash, randomUUID } from 'node:crypto';
import { access, link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseOf } from '../../jmf/answer.js';
import { newId, writeAtomic, type EntryRecord } from './outbox.js';

/** The first answer as kept: a Response without the request it answered (the repeat's own is put in). */
export type KeptAnswer = Omit<ResponseOf, 'request'>;

/** What became of a job passed on: its queue entry's record and the answer it gets. */
export interface PassedOn {
  record: EntryRecord;
  answer: KeptAnswer;
}

interface ClaimFile {
  sender: string;
  id: string;
  queueEntryId: string;
  /** When it was claimed (ms since the epoch). */
  claimed: number;
  pid: number;
}

export interface MyClaim {
  state: 'mine';
  queueEntryId: string;
  /** 0 for the first claim, N when it took over N dead ones. */
  generation: number;
  /** Whether no one has taken it over: asked just before the job is passed on. */
  stillMine(): Promise<boolean>;
  /** Set when this claim took over one whose job was passed on already: finish it, do not pass it on again. */
  passedOnBefore?: PassedOn;
  /** Notes that the job has been passed on and what came of it (quick: no flush; it outlives a process's death). */
  passedOn(what: PassedOn): Promise<void>;
  /** Keeps the answer for repeats. */
  keep(answer: KeptAnswer): Promise<void>;
  /** Gives the claim up (nothing was passed on): a repeat may claim it at once. */
  release(): Promise<void>;
}

export type Claim = MyClaim | { state: 'answered'; answer: KeptAnswer } | { state: 'busy'; retryAfterSeconds: number };

function keyOf(sender: string, id: string): string {
  return createHash('sha256').update(`${sender}\u0000${id}`, 'utf8').digest('hex').slice(0, 40);
}

/** Claims the submission `id` of `sender` in the outbox, or says it is answered or in flight. */
export async function claimSubmission(outbox: string, sender: string, id: string, staleMs: number): Promise<Claim> {
  const dir = path.join(outbox, '.claims', keyOf(sender, id));
  await mkdir(dir, { recursive: true });
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      const got = await claimOnce(dir, sender, id, staleMs);
      if (got) return got;
    } catch (error) {
      // The folder removed as we looked (retention.ts: a claim older than --keep): made again, claimed anew.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
    }
  }
  return { state: 'busy', retryAfterSeconds: 1 };
}

/** One look at the claim folder: the claim made, or the answer or "busy"; undefined to look again. */
async function claimOnce(dir: string, sender: string, id: string, staleMs: number): Promise<Claim | undefined> {
  const answered = await readAnswer(dir);
  if (answered) return { state: 'answered', answer: answered };
  const generations = (await readdir(dir)).map((n) => /^claim\.(\d+)$/.exec(n)?.[1]).filter((n): n is string => n !== undefined).map(Number);
  if (generations.length === 0) {
    return tryClaim(dir, 0, { sender, id, queueEntryId: newId(), claimed: Date.now(), pid: process.pid });
  }
  const last = Math.max(...generations);
  const held = await readClaim(dir, last);
  if (!held) return undefined;
  const age = Date.now() - held.claimed;
  if (age < staleMs) {
    const again = await readAnswer(dir);
    return again ? { state: 'answered', answer: again } : { state: 'busy', retryAfterSeconds: Math.max(1, Math.min(5, Math.ceil((staleMs - age) / 1000))) };
  }
  if (await readAnswer(dir)) return undefined;
  return tryClaim(dir, last + 1, { ...held, claimed: Date.now(), pid: process.pid });
}

/** claim.N made whole beside its name, then linked to it: only one instance's link succeeds. */
async function tryClaim(dir: string, generation: number, claim: ClaimFile): Promise<MyClaim | undefined> {
  const temp = path.join(dir, `.claim.${randomUUID()}.tmp`);
  await writeFile(temp, JSON.stringify(claim) + '\n', { flag: 'wx', mode: 0o644 });
  try {
    await link(temp, path.join(dir, `claim.${generation}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
  const file = path.join(dir, `claim.${generation}`);
  const before = generation > 0 ? await readJson<PassedOn>(path.join(dir, 'passed-on.json')) : undefined;
  return {
    state: 'mine',
    queueEntryId: claim.queueEntryId,
    generation,
    ...(before ? { passedOnBefore: before } : {}),
    passedOn: async (what) => {
      const temp = path.join(dir, `.passed-on.${randomUUID()}.tmp`);
      await writeFile(temp, JSON.stringify(what) + '\n', { flag: 'wx', mode: 0o644 });
      await rename(temp, path.join(dir, 'passed-on.json'));
    },
    stillMine: async () => !(await exists(path.join(dir, `claim.${generation + 1}`))),
    keep: (answer) => writeAtomic(path.join(dir, 'answer.json'), (append) => append(JSON.stringify(answer) + '\n')),
    release: () => rm(file, { force: true }),
  };
}

async function readClaim(dir: string, generation: number): Promise<ClaimFile | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, `claim.${generation}`), 'utf8')) as ClaimFile;
  } catch {
    return undefined; // released in the meantime
  }
}

function readAnswer(dir: string): Promise<KeptAnswer | undefined> {
  return readJson<KeptAnswer>(path.join(dir, 'answer.json'));
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
