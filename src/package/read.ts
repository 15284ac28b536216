// readPackage: every part of a MIME or zip package, handed over as it is read (never a whole part in memory
// unless the visitor keeps it). validatePackage is built on the same readers.
import { isZip, bytesAccess, readZipDirectory, readZipEntry, type RandomAccess } from './zip.js';
import { buffered, classifyInput, peek, type PackageInput } from './input.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { MultipartReader } from './multipart.js';

export interface PackagePart {
  /** Content-ID in angle brackets, else Content-Location, file name or "part N"; a zip entry's name. */
  name: string;
  contentId?: string;
  location?: string;
  filename?: string;
  contentType?: string;
}

export interface PackageVisitor {
  /** A part begins; return a function to receive its decoded bytes (valid during the call only), or nothing to skip them. */
  part(part: PackagePart): ((data: Uint8Array) => void | Promise<void>) | void;
}

/**
 * Reads a package given as bytes, random access (zip or MIME) or a stream of chunks (MIME; a zip on a stream is
 * read into memory first, up to `maxBytes`, default DEFAULT_MAX_BYTES, 256 MiB). Findings are validatePackage's job: this throws
 * when the input is none of the three, fails while read, is a zip stream over `maxBytes`, or is a zip whose
 * directory is not read (past a limit, such as 10,000 entries or 16 MiB, or damaged: a RangeError).
 */
export async function readPackage(input: PackageInput, visitor: PackageVisitor, options: { maxBytes?: number } = {}): Promise<{ kind: 'mime' | 'zip'; parts: PackagePart[] }> {
  const parts: PackagePart[] = [];
  const given = classifyInput(input);
  if (given.kind === 'unknown') throw new TypeError(`readPackage takes bytes, an AsyncIterable of bytes or { size, read(offset, length) }, not ${given.what}`);
  let access: RandomAccess | null = given.kind === 'bytes' ? bytesAccess(given.bytes) : given.kind === 'random' ? given.access : null;
  let stream: AsyncIterable<Uint8Array> | null = null;
  if (given.kind === 'stream') {
    const { head, all } = await peek(given.chunks);
    stream = all;
    if (isZip(head)) {
      const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
      const whole = await buffered(all, max);
      if ('over' in whole) throw new RangeError(`a zip on a stream is read into memory, and this one is over ${max} bytes (maxBytes)`);
      access = bytesAccess(whole.bytes);
    }
  }
  if (access !== null && isZip(await access.read(0, 4))) {
    const directory = await readZipDirectory(access);
    // A directory not read at all (past a limit, or damaged) is no empty package.
    const unread = directory.problems.find((p) => p.entry === undefined && (p.code === 'package-limit' || p.code === 'zip-malformed'));
    if (unread !== undefined && directory.entries.length === 0) throw new RangeError(`the zip's entries cannot be read: ${Object.values(unread.args).join(', ')}`);
    for (const entry of directory.entries) {
      const part: PackagePart = { name: entry.name };
      parts.push(part);
      const sink = visitor.part(part);
      if (sink && !entry.isDirectory) await readZipEntry(access, entry, entry.size, sink);
    }
    return { kind: 'zip', parts };
  }
  let sink: ((data: Uint8Array) => void | Promise<void>) | void;
  let pending: Promise<unknown> = Promise.resolve();
  const reader = new MultipartReader({
    partStart(h) {
      const part: PackagePart = { name: h.contentId !== undefined ? `<${h.contentId}>` : h.location ?? h.filename ?? `part ${h.index + 1}` };
      if (h.contentId !== undefined) part.contentId = h.contentId;
      if (h.location !== undefined) part.location = h.location;
      if (h.filename !== undefined) part.filename = h.filename;
      if (h.contentType) part.contentType = h.contentType.type;
      parts.push(part);
      sink = visitor.part(part);
    },
    partData(_h, data) {
      if (!sink) return false;
      const s = sink;
      const copy = new Uint8Array(data);
      pending = pending.then(() => s(copy));
      return true;
    },
    partEnd() {},
    problem() {},
  });
  const from = access;
  const chunks: AsyncIterable<Uint8Array> = from !== null ? (async function* () { for (let at = 0; at < from.size; at += 1 << 20) yield await from.read(at, Math.min(1 << 20, from.size - at)); })() : stream!;
  for await (const chunk of chunks) {
    reader.push(chunk);
    await pending;
  }
  reader.end();
  await pending;
  return { kind: 'mime', parts };
}
