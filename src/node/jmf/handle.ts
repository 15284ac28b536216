// handleJmf: the JMF front door as a function of one HTTP request. POST a JMF or XJMF message (bare, or the root
// of a MIME multipart/related package) and get the JMF answer; GET a report an answer links to. Every job's
// submission, reports and status are in the outbox, so any instance sharing it answers the same.
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildAnswer, errorRequest, type ResponseOf } from '../../jmf/answer.js';
import { readJmf, type JmfDocument, type JmfMessage } from '../../jmf/read.js';
import * as codes from '../../jmf/return-codes.js';
import { buildReport } from '../../report/report.js';
import { jsonDocument } from '../../report/json-pieces.js';
import { sarifPieces } from '../../report/sarif.js';
import { ruleCatalog } from '../../rules/catalog.js';
import type { HttpRefusal, HttpRequest, HttpResponse } from '../serve/types.js';
import { headOf, isMultipart, rootPart, saveBody } from './body.js';
import { checkSubmission, notesOf } from './check.js';
import { claimSubmission, type KeptAnswer, type MyClaim } from './claims.js';
import { CLAIM_STALE_MS, type JmfOptions } from './options.js';
import { entryDir, listRecords, newId, readRecord, safeId, writeAtomic, writeRecord, type EntryRecord } from './outbox.js';
import { dropJob, forwardJob } from './pass-on.js';

export type { JmfOptions } from './options.js';

/** JDF 1.x 4.3 (HTTP binding): the media types of JMF and XJMF. */
const MEDIA = { jmf: 'application/vnd.cip4-jmf+xml', xjmf: 'application/vnd.cip4-xjmf+xml' } as const;

/** The messages this front door answers (KnownMessages lists them). */
const KNOWN = [
  { type: 'KnownMessages', query: true },
  { type: 'SubmitQueueEntry', command: true },
  { type: 'ResubmitQueueEntry', command: true },
  { type: 'QueueStatus', query: true },
  { type: 'QueueEntryStatus', query: true },
];

/** The JMF message itself (a bare body, or a package's root part) is held to be read: a JMF is a few kB, never this. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** The most Notifications one Response carries; the rest are in the report it links. */
const MAX_NOTES = 1000;

/** Answers one request: a JMF message POSTed, or a report fetched. Never throws: a failure is a JMF answer (ReturnCode 2). */
export async function handleJmf(request: HttpRequest, options: JmfOptions): Promise<HttpResponse> {
  try {
    if (request.method === 'GET' || request.method === 'HEAD') return await report(request, options);
    if (request.method !== 'POST') return { status: 405, headers: { allow: 'GET, HEAD, POST', 'content-type': 'text/plain; charset=utf-8' }, body: 'POST a JMF message here\n' };
    return await post(request, options);
  } catch (error) {
    return answer(undefined, [{ request: errorRequest(), returnCode: codes.INTERNAL_ERROR, comment: `internal error: ${(error as Error).message}` }]);
  }
}

/** A refusal of the server's own (413, 400, 503, 408, 401) as a JMF answer, for the listener to send. */
export const jmfRefusal: HttpRefusal = (status, reason) => ({ ...answer(undefined, [{ request: errorRequest(), returnCode: status === 503 || status === 408 ? codes.BUSY : codes.INVALID_PARAMETERS, comment: reason }]), status });

function answer(doc: JmfDocument | undefined, responses: ResponseOf[], status = 200, retryAfter?: number): HttpResponse {
  const kind = doc?.kind ?? 'jmf';
  const job = responses.find((r) => r.entry !== undefined && (r.request.type === 'SubmitQueueEntry' || r.request.type === 'ResubmitQueueEntry'));
  return {
    status,
    headers: { 'content-type': `${MEDIA[kind]}; charset=utf-8`, ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}) },
    body: buildAnswer(kind, doc?.version, responses),
    ...(job ? { job: { accepted: job.returnCode === 0, returnCode: job.returnCode } } : {}),
  };
}

async function post(request: HttpRequest, o: JmfOptions): Promise<HttpResponse> {
  const incoming = path.join(o.outbox, '.incoming');
  await mkdir(incoming, { recursive: true });
  const file = path.join(incoming, newId());
  try {
    const saved = await saveBody(request.body, file, o.maxBytes);
    if ('over' in saved) return answer(undefined, [{ request: errorRequest(), returnCode: codes.INVALID_PARAMETERS, comment: `the body is larger than ${o.maxBytes} bytes` }], 413);
    const contentType = request.headers['content-type'];
    const multipart = isMultipart(contentType);
    const most = Math.min(o.maxBytes, MAX_MESSAGE_BYTES);
    const message = multipart ? await rootPart(file, contentType!, most, o.limits) : await bareMessage(file, most);
    if (message === undefined) return answer(undefined, [{ request: errorRequest(), returnCode: codes.XML_PARSER_ERROR, comment: multipart ? `the MIME package has no root part (RFC 2387 3.2) of at most ${most} bytes` : `the message is larger than ${most} bytes` }]);
    const read = readJmf(message);
    if ('problem' in read) return answer(undefined, [{ request: errorRequest(), returnCode: codes.XML_PARSER_ERROR, comment: `${read.problem.message} (line ${read.problem.line}, column ${read.problem.column})` }]);
    const doc = read.document;
    const responses: ResponseOf[] = [];
    const body: Body = { request, file, contentType, multipart, sender: doc.senderId ?? '' };
    for (const m of doc.messages) {
      if (m.family !== 'Query' && m.family !== 'Command') continue; // JDF 1.x 4.2: only queries and commands are answered
      responses.push(await respond(m, body, o));
    }
    // A submission still in flight elsewhere: 503 with Retry-After, so that a load balancer or sender asks again.
    return body.retryAfter !== undefined ? answer(doc, responses, 503, body.retryAfter) : answer(doc, responses);
  } finally {
    await rm(file, { force: true });
  }
}

async function bareMessage(file: string, maxBytes: number): Promise<Uint8Array | undefined> {
  const head = await headOf(file, maxBytes);
  return head.more ? undefined : head.bytes;
}

interface Body {
  request: HttpRequest;
  file: string;
  contentType: string | undefined;
  multipart: boolean;
  /** JMF/@SenderID, the XJMF Header's DeviceID: with a command's ID, it names one submission. */
  sender: string;
  /** Set when a submission is in flight elsewhere: the answer is 503 with this Retry-After. */
  retryAfter?: number;
}

async function respond(m: JmfMessage, body: Body, o: JmfOptions): Promise<ResponseOf> {
  switch (m.type) {
    case 'KnownMessages':
      return { request: m, returnCode: codes.SUCCESS, known: KNOWN };
    case 'QueueStatus':
      return { request: m, returnCode: codes.SUCCESS, queue: await listRecords(o.outbox) };
    case 'QueueEntryStatus': {
      const entry = m.queueEntryId !== undefined ? await findRecord(o.outbox, m.queueEntryId) : undefined;
      if (!entry) return { request: m, returnCode: m.queueEntryId === undefined ? codes.INSUFFICIENT_PARAMETERS : codes.UNKNOWN_QUEUE_ENTRY, comment: m.queueEntryId === undefined ? 'QueueEntryDef/@QueueEntryID is missing' : `no queue entry ${m.queueEntryId}` };
      return { request: m, returnCode: codes.SUCCESS, entry, report: reportUrl(body.request, o, entry.queueEntryId) };
    }
    case 'SubmitQueueEntry':
    case 'ResubmitQueueEntry':
      return m.family === 'Command' ? submit(m, body, o) : notImplemented(m);
    default:
      return notImplemented(m);
  }
}

function notImplemented(m: JmfMessage): ResponseOf {
  return { request: m, returnCode: codes.NOT_IMPLEMENTED, comment: `${m.family} ${m.type || '(no Type)'} is not answered here; KnownMessages lists what is` };
}

/** The claim was taken over (it went stale) before the job was passed on: the taker passes it on, not we. */
class TakenOver extends Error {}

/**
 * JDF 1.x 5.6.x SubmitQueueEntry / ResubmitQueueEntry, once per submission: a command with an ID is claimed in the
 * outbox (claims.ts); a repeat of it gets the first answer, or BUSY (10) while the first is in flight.
 */
async function submit(m: JmfMessage, body: Body, o: JmfOptions): Promise<ResponseOf> {
  const url = m.submission?.url;
  if (url === undefined || url === '') return { request: m, returnCode: codes.INSUFFICIENT_PARAMETERS, comment: `${m.type} without the URL of its ticket (QueueSubmissionParams/@URL)` };
  if (m.id === undefined || m.id === '') return checkAndPassOn(m, url, body, o, undefined);
  const claim = await claimSubmission(o.outbox, body.sender, m.id, o.claimStaleMs ?? CLAIM_STALE_MS);
  if (claim.state === 'answered') return { ...claim.answer, request: m };
  const busy = (): ResponseOf => {
    body.retryAfter = Math.max(body.retryAfter ?? 0, claim.state === 'busy' ? claim.retryAfterSeconds : 1);
    return { request: m, returnCode: codes.BUSY, comment: `${m.type} ${m.id}${body.sender !== '' ? ` from ${body.sender}` : ''} is being handled already; ask again for its answer` };
  };
  if (claim.state === 'busy') return busy();
  if (claim.passedOnBefore) {
    // The instance that died had passed the job on: its record and answer finished here, nothing passed on again.
    await writeRecord(o.outbox, claim.passedOnBefore.record);
    await claim.keep(claim.passedOnBefore.answer);
    return { ...claim.passedOnBefore.answer, request: m };
  }
  let passedOn = false;
  try {
    const response = await checkAndPassOn(m, url, body, o, claim, () => { passedOn = true; });
    const { request: _request, ...kept }: ResponseOf & KeptAnswer = response;
    await claim.keep(kept);
    return response;
  } catch (error) {
    if (error instanceof TakenOver) return busy();
    if (!passedOn) await claim.release();
    throw error;
  }
}

/** The submission checked, its reports and status kept, and passed on when accepted. */
async function checkAndPassOn(m: JmfMessage, url: string, body: Body, o: JmfOptions, claim: MyClaim | undefined, passing?: () => void): Promise<ResponseOf> {
  let id = claim?.queueEntryId ?? newId();
  if (m.type === 'ResubmitQueueEntry') {
    const old = m.submission?.queueEntryId;
    if (old === undefined || !(await readRecord(o.outbox, old))) return { request: m, returnCode: old === undefined ? codes.INSUFFICIENT_PARAMETERS : codes.UNKNOWN_QUEUE_ENTRY, comment: old === undefined ? 'ResubmitQueueEntry without the QueueEntryID it replaces' : `no queue entry ${old} to resubmit` };
    id = old;
  }
  const dir = entryDir(o.outbox, id);
  await mkdir(dir, { recursive: true });
  const stored = path.join(dir, body.multipart ? 'submission.mjm' : 'submission.jmf');
  await keep(body.file, stored);
  const checked = await checkSubmission(url, stored, body.contentType, body.multipart, o);
  const report = buildReport(checked.files, o.toolVersion);
  await writeAtomic(path.join(dir, 'report.json'), async (append) => { for (const piece of jsonDocument(report)) await append(piece); });
  await writeAtomic(path.join(dir, 'report.sarif'), async (append) => { for (const piece of sarifPieces(report, ruleCatalog)) await append(piece); });
  const notes = notesOf(checked.files);
  let returnCode = checked.unreachable !== undefined ? codes.URL_NOT_ACCESSIBLE : report.summary.error > 0 ? codes.refusedJobCode(notes.filter((n) => n.severity === 'error').map((n) => n.code)) : codes.SUCCESS;
  const record: EntryRecord = { queueEntryId: id, status: returnCode === 0 ? 'Waiting' : 'Aborted', returnCode, submitted: new Date().toISOString(), ...(m.submission?.returnJmf ? { returnJmf: m.submission.returnJmf } : {}) };
  const comments: string[] = [];
  let passedOn = false;
  if (checked.unreachable !== undefined) comments.push(checked.unreachable);
  if (returnCode === codes.SUCCESS) {
    if (claim && !(await claim.stillMine())) throw new TakenOver();
    passing?.();
    passedOn = true;
    returnCode = await passOn(record, stored, body, o, comments);
    record.returnCode = returnCode;
    record.status = returnCode !== codes.SUCCESS ? 'Aborted' : o.forward !== undefined || o.hotFolder !== undefined ? 'Completed' : 'Waiting';
  }
  if (notes.length > MAX_NOTES) comments.push(`${notes.length - MAX_NOTES} more findings are in the report`);
  const answer: KeptAnswer = { returnCode, notes: notes.slice(0, MAX_NOTES), ...(comments.length > 0 ? { comment: comments.join('; ') } : {}), report: reportUrl(body.request, o, id), entry: record };
  // Noted at once (before the flushed writes of the record and the answer): a taker finishes, never passes on again.
  if (claim && passedOn) await claim.passedOn({ record, answer });
  await writeRecord(o.outbox, record);
  return { request: m, ...answer };
}

/** Forwards and/or drops an accepted job; the downstream's ReturnCode (relayed) when it refuses it. */
async function passOn(record: EntryRecord, stored: string, body: Body, o: JmfOptions, comments: string[]): Promise<number> {
  let returnCode: number = codes.SUCCESS;
  if (o.forward !== undefined) {
    const down = await forwardJob(o.forward, stored, body.contentType, o.fetch);
    record.forwarded = { url: o.forward, ...(down.returnCode !== undefined ? { returnCode: down.returnCode } : {}), ...(down.httpStatus !== undefined ? { httpStatus: down.httpStatus } : {}) };
    if (down.queueEntryId !== undefined && down.returnCode === codes.SUCCESS) record.forwardedAs = down.queueEntryId;
    if (down.error !== undefined || down.returnCode === undefined) {
      returnCode = codes.DEVICE_NOT_AVAILABLE;
      comments.push(`the downstream device at ${o.forward} did not answer in JMF${down.error !== undefined ? `: ${down.error}` : ` (HTTP ${down.httpStatus})`}`);
    } else if (down.returnCode !== codes.SUCCESS) {
      returnCode = down.returnCode;
      comments.push(`the downstream device refused the job (ReturnCode ${down.returnCode})${down.comments.length > 0 ? `: ${down.comments.join('; ')}` : ''}`);
    }
  }
  if (returnCode === codes.SUCCESS && o.hotFolder !== undefined) {
    try {
      record.hotFolder = await dropJob(o.hotFolder, record.queueEntryId, stored, body.contentType, body.multipart);
    } catch (error) {
      // Forwarded already: the job is the device's, and a resubmission would make it twice; only the drop failed.
      comments.push(`the job could not be dropped into the hot folder: ${(error as Error).message}`);
      if (o.forward === undefined) returnCode = codes.INTERNAL_ERROR;
    }
  }
  return returnCode;
}

/** An entry by our QueueEntryID, or by the one the downstream device gave it. */
async function findRecord(outbox: string, id: string): Promise<EntryRecord | undefined> {
  return (await readRecord(outbox, id)) ?? (await listRecords(outbox)).find((r) => r.forwardedAs === id);
}

/** The incoming body moved into the entry's folder (the same file system: the outbox). */
async function keep(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  await rename(from, to);
}

function reportUrl(request: HttpRequest, o: JmfOptions, id: string): string {
  const base = o.publicUrl ?? `http://${request.headers.host ?? 'localhost'}${request.url.split('?')[0]!.replace(/[^/]*$/, '')}`;
  return new URL(`reports/${encodeURIComponent(id)}/report.json`, base.endsWith('/') ? base : `${base}/`).href;
}

/** GET .../reports/ID/report.json or report.sarif: the report kept in the outbox. */
async function report(request: HttpRequest, o: JmfOptions): Promise<HttpResponse> {
  const m = /\/reports\/([^/?]+)\/(report\.json|report\.sarif)(?:\?|$)/.exec(request.url);
  const id = m ? decodeURIComponent(m[1]!) : '';
  if (!m || !safeId(id)) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'POST a JMF message here; reports are at reports/ID/report.json\n' };
  try {
    const bytes = await readFile(path.join(entryDir(o.outbox, id), m[2]!));
    return { status: 200, headers: { 'content-type': m[2] === 'report.json' ? 'application/json' : 'application/sarif+json' }, body: request.method === 'HEAD' ? '' : bytes };
  } catch {
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `no report for ${id}\n` };
  }
}
