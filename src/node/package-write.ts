// pack's writers: the package's bytes from a ticket and the files the walk found (package-pack.ts plans them).
// MIME multipart/related (RFC 2387) in base64 parts, or a zip by yazl; each file is read through the descriptor
// of the file the walk found (checked-source.ts), one at a time, and streamed, never held whole.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { CheckedFile } from './checked-file.js';
import { readCheckedSource } from './checked-source.js';

/** A file to write: its part's Content-ID or entry name, the file the walk found, and its time and mode. */
export interface PackingFile {
  name: string;
  path: string;
  checked: CheckedFile;
  mtime: Date;
  mode: number;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', tif: 'image/tiff', tiff: 'image/tiff', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png',
  ps: 'application/postscript', eps: 'application/postscript', xml: 'application/xml', zip: 'application/zip', icc: 'application/vnd.iccprofile', icm: 'application/vnd.iccprofile',
};
/** Already compressed: stored in a zip, not deflated again. */
const STORED = new Set(['pdf', 'jpg', 'jpeg', 'png', 'zip', 'gz', 'tif', 'tiff']);
const extensionOf = (p: string) => path.extname(p).slice(1).toLowerCase();

/**
 * The stream's close, or its error. Handled from the start: an error while a source is still being read would
 * otherwise be a rejection nobody waits for yet, which ends the process.
 */
function closed(out: NodeJS.WritableStream): Promise<unknown[]> {
  const done = once(out, 'close');
  done.catch(() => undefined);
  return done;
}

async function write(out: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

/** RFC 2046 5.1.1 and RFC 2387: the ticket first (the root, named by start), then each file in base64 (RFC 2045 6.8). */
export async function writeMime(file: string, ticket: Uint8Array, rootType: string, files: readonly PackingFile[]): Promise<void> {
  // A base64 line never holds "-", so a boundary starting "--" cannot occur in one; the ticket is checked.
  let boundary: string;
  do boundary = `jdf-filespec-${randomBytes(16).toString('hex')}`;
  while (Buffer.from(ticket).includes(`--${boundary}`));
  const out = createWriteStream(file, { flags: 'wx' });
  const done = closed(out);
  try {
    await writeParts(out, boundary, ticket, rootType, files);
  } catch (error) {
    out.destroy();
    // The cause is what is reported: a write still buffered fails once the stream is destroyed
    // (ERR_STREAM_DESTROYED, "Cannot call writev after a stream was destroyed"), which says nothing of why.
    await done.catch(() => undefined);
    throw error;
  }
  out.end();
  await done;
}

async function writeParts(out: NodeJS.WritableStream, boundary: string, ticket: Uint8Array, rootType: string, files: readonly PackingFile[]): Promise<void> {
  const rootId = 'ticket@jdf-filespec';
  const longLine = Buffer.from(ticket).toString('latin1').split('\n').some((l) => l.length > 998);
  await write(out, `MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="${boundary}"; type="${rootType}"; start="<${rootId}>"\r\n\r\n`);
  await write(out, `--${boundary}\r\nContent-Type: ${rootType}\r\nContent-ID: <${rootId}>\r\nContent-Transfer-Encoding: ${longLine ? 'binary' : '8bit'}\r\n\r\n`);
  await write(out, ticket);
  for (const f of files) {
    const type = CONTENT_TYPES[extensionOf(f.path)] ?? 'application/octet-stream';
    await write(out, `\r\n--${boundary}\r\nContent-Type: ${type}\r\nContent-ID: <${f.name}>\r\nContent-Disposition: attachment; ${filenameParams(path.basename(f.path))}\r\nContent-Transfer-Encoding: base64\r\n\r\n`);
    // 57 input bytes make one 76-character line; read in multiples of 57 and carry the rest.
    let carry = Buffer.alloc(0);
    let first = true;
    for await (const chunk of readCheckedSource(f.checked)) {
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 57);
      carry = Buffer.from(data.subarray(whole));
      if (whole > 0) {
        await write(out, (first ? '' : '\r\n') + base64Lines(data.subarray(0, whole)));
        first = false;
      }
    }
    if (carry.length > 0) await write(out, (first ? '' : '\r\n') + base64Lines(carry));
  }
  await write(out, `\r\n--${boundary}--\r\n`);
}

function base64Lines(data: Buffer): string {
  const text = data.toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < text.length; at += 76) lines.push(text.slice(at, at + 76));
  return lines.join('\r\n');
}

/** The ticket at the top level (XJDF 2.0 zip packaging), the files under content/; yazl writes ZIP64 when needed. */
export async function writeZip(file: string, ticketName: string, ticket: Uint8Array, files: readonly PackingFile[]): Promise<void> {
  const zip = new yazl.ZipFile();
  const handle = await open(file, 'wx');
  const out = handle.createWriteStream();
  const done = closed(out);
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  zip.outputStream.pipe(out);
  zip.addBuffer(Buffer.from(ticket), ticketName, { compress: true });
  for (const f of files) {
    // Opened when yazl comes to it, one file at a time, through the descriptor of the file the walk found.
    zip.addReadStreamLazy(f.name, { compress: !STORED.has(extensionOf(f.path)), mtime: f.mtime, mode: f.mode }, (give) => {
      const stream = Readable.from(readCheckedSource(f.checked), { objectMode: false });
      stream.on('error', (error) => zip.emit('error', error));
      give(null, stream);
    });
  }
  zip.end();
  try {
    await Promise.race([done, failed]);
  } catch (error) {
    zip.outputStream.unpipe(out);
    out.destroy();
    await done.catch(() => undefined); // the cause is reported, not the destroyed stream's error
    throw error;
  }
}

/**
 * RFC 2183 filename: an ASCII fallback (RFC 2045 quoted-string), then, when the name is not that, RFC 2231 4
 * `filename*=UTF-8''...` (attr-char kept, every other octet percent-encoded), which readers prefer (RFC 6266 4.3).
 */
function filenameParams(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === name) return `filename="${ascii}"`;
  const extended = [...new TextEncoder().encode(name.normalize('NFC'))].map((b) => (/[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  return `filename="${ascii}"; filename*=UTF-8''${extended}`;
}
