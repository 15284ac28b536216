// The request body to a file as it arrives (a package is never held whole), and the JMF message read back from
// it: the whole body when it is a bare JMF, the root part (RFC 2387 3.2) when it is a MIME package.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { MultipartReader, type PartHead } from '../../package/multipart.js';
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from '../../package/limits.js';
import { parseMediaType } from '../../package/headers.js';

/** Writes the body to `file` (created exclusively); `over` when it passed maxBytes (the file is then incomplete). */
export async function saveBody(body: AsyncIterable<Uint8Array>, file: string, maxBytes: number): Promise<{ bytes: number } | { over: number }> {
  const handle = await open(file, 'wx', 0o600);
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes) return { over: bytes };
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  return { bytes };
}

/** The file's bytes as a stream of chunks. */
export function chunksOf(file: string): AsyncIterable<Uint8Array> {
  return createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<Uint8Array>;
}

/** The first `max` bytes of a file and whether there were more. */
export async function headOf(file: string, max: number): Promise<{ bytes: Uint8Array; more: boolean }> {
  const handle = await open(file, 'r');
  try {
    // Never more than the file holds: max is a limit (256 MiB by default), not a size to allocate.
    const buffer = Buffer.alloc(Math.min(max, (await handle.stat()).size) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, Math.min(bytesRead, max)), more: bytesRead > max };
  } finally {
    await handle.close();
  }
}

/** Whether the request says its body is a MIME package (RFC 2387 multipart/related, or any multipart). */
export function isMultipart(contentType: string | undefined): boolean {
  return parseMediaType(contentType)?.type.startsWith('multipart/') ?? false;
}

/**
 * The root part of the MIME package in `file` (RFC 2387 3.2: the part the start parameter names, else the first),
 * decoded, up to maxBytes; undefined when there is none or it is larger.
 */
export async function rootPart(file: string, contentType: string, maxBytes: number, limits: Partial<MultipartLimits> = {}): Promise<Uint8Array | undefined> {
  const start = parseMediaType(contentType)?.params.get('start')?.trim().replace(/^<(.*)>$/, '$1');
  let taking: PartHead | undefined;
  let found: Uint8Array[] | undefined;
  let size = 0;
  let done = false;
  const reader = new MultipartReader({
    partStart(head) {
      if (done || found !== undefined) return;
      if (start === undefined ? head.index === 0 : head.contentId === start) {
        taking = head;
        found = [];
      }
    },
    partData(head, data) {
      if (head !== taking || found === undefined) return;
      size += data.length;
      if (size > maxBytes) {
        found = undefined;
        done = true;
        return false;
      }
      found.push(data.slice());
    },
    partEnd(head) {
      if (head === taking) done = true;
    },
    problem() {},
  }, { ...DEFAULT_MULTIPART_LIMITS, ...limits }, contentType);
  for await (const chunk of chunksOf(file)) {
    reader.push(chunk);
    if (done || reader.stopped) break;
  }
  if (!done) reader.end();
  return found === undefined ? undefined : Buffer.concat(found);
}
