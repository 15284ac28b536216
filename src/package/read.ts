// readPackage: every part of a MIME or zip package, handed over as it is read (never a whole part in memory
// unless the visitor keeps it). validatePackage is built on the same readers.
import { isZip, bytesAccess, readZipDirectory, readZipEntry, type RandomAccess } from './zip.js';
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

/** Reads a package given as bytes, random access (zip or MIME) or a stream of chunks (MIME); findings are validatePackage's job. */
export async function readPackage(input: Uint8Array | RandomAccess | AsyncIterable<Uint8Array>, visitor: PackageVisitor): Promise<{ kind: 'mime' | 'zip'; parts: PackagePart[] }> {
  const parts: PackagePart[] = [];
  const access = input instanceof Uint8Array ? bytesAccess(input) : 'read' in input ? input : null;
  if (access !== null && isZip(await access.read(0, 4))) {
    const directory = await readZipDirectory(access);
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
  const chunks: AsyncIterable<Uint8Array> = access !== null ? (async function* () { for (let at = 0; at < access.size; at += 1 << 20) yield await access.read(at, Math.min(1 << 20, access.size - at)); })() : (input as AsyncIterable<Uint8Array>);
  for await (const chunk of chunks) {
    reader.push(chunk);
    await pending;
  }
  reader.end();
  await pending;
  return { kind: 'mime', parts };
}
