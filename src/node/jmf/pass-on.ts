// An accepted job passed on as the sender made it: POSTed to the downstream device's JMF URL (the body streamed,
// with the sender's Content-Type; its answer read back), and/or dropped into a hot folder as `watch` takes it
// (written to a hidden temporary, renamed into place). A refused job never comes here.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readJmf } from '../../jmf/read.js';
import { chunksOf } from './body.js';
import { writeAtomic } from './outbox.js';

/** What the downstream answered: its HTTP status and the ReturnCode of its first Response. */
export interface Downstream {
  httpStatus?: number;
  returnCode?: number;
  /** The QueueEntryID its Response gave the job. */
  queueEntryId?: string;
  comments: string[];
  error?: string;
}

const ANSWER_BYTES = 1024 * 1024;

export async function forwardJob(url: string, file: string, contentType: string | undefined, fetcher: typeof fetch = fetch): Promise<Downstream> {
  try {
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    const answer = await fetcher(url, { method: 'POST', headers: { 'content-type': contentType ?? 'application/vnd.cip4-jmf+xml' }, body, duplex: 'half' } as RequestInit);
    const bytes = new Uint8Array(await answer.arrayBuffer()).subarray(0, ANSWER_BYTES);
    const read = readJmf(bytes);
    const response = 'document' in read ? read.document.messages.find((m) => m.family === 'Response') : undefined;
    return { httpStatus: answer.status, ...(response?.returnCode !== undefined ? { returnCode: response.returnCode } : {}), ...(response?.queueEntryId !== undefined ? { queueEntryId: response.queueEntryId } : {}), comments: response?.comments ?? [] };
  } catch (error) {
    return { comments: [], error: (error as Error).message };
  }
}

/** Drops the job into `folder` as ID.mjm (a MIME package with its header) or ID.jmf, whole (writeAtomic: a hidden
 * temporary renamed, which watch does not take up); returns the file's path. */
export async function dropJob(folder: string, id: string, file: string, contentType: string | undefined, multipart: boolean): Promise<string> {
  const target = path.join(folder, `${id}${multipart ? '.mjm' : '.jmf'}`);
  await writeAtomic(target, async (append) => {
    // RFC 2045 4 and 5: a MIME package file carries the Content-Type HTTP gave in its own header.
    if (multipart) await append(Buffer.from(`MIME-Version: 1.0\r\nContent-Type: ${contentType}\r\n\r\n`, 'latin1'));
    for await (const chunk of chunksOf(file)) await append(chunk);
  });
  return target;
}
