// Reading a zip from its central directory (PKWARE APPNOTE 6.3.10), with random access, so a package of any
// size is looked into without extracting it and an entry is inflated only as far as it is wanted.
// fflate does the inflating (a browser-usable, streaming deflate); the directory itself is read here because
// fflate reads it only from a whole file in memory, and yauzl only from Node's file system.
import { Inflate } from 'fflate';
import { utf8Replacing } from '../escape/charsets.js';
import { zipEntryProblems } from '../rules/package.js';
import { limitProblem, zipDamageProblem, type ZipDamage } from '../rules/package-read.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './limits.js';

/** A package that can be read at any offset: a file, a Blob, bytes in memory. */
export interface RandomAccess {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bytesAccess(bytes: Uint8Array): RandomAccess {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

export interface ZipEntry {
  name: string;
  /** Compression method (APPNOTE 4.4.5): 0 stored, 8 deflated. */
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  isDirectory: boolean;
}

export interface ZipProblem {
  code: 'zip-malformed' | 'zip-slip' | 'zip-bomb' | 'package-limit';
  args: Record<string, string | number>;
  entry?: string;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  problems: ZipProblem[];
}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

// IBM code page 437, 0x80-0xFF: names without the UTF-8 flag (APPNOTE appendix D).
const CP437 = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

function decodeName(raw: Uint8Array, utf8: boolean): string {
  if (utf8) return utf8Replacing(raw);
  let out = '';
  for (const b of raw) out += b < 0x80 ? String.fromCharCode(b) : CP437[b - 0x80]!;
  return out;
}

/** APPNOTE 4.3.16 (end of central directory), 4.3.14-15 (ZIP64), 4.3.12 (central directory headers). */
export async function readZipDirectory(src: RandomAccess, limits: Partial<ZipLimits> = {}): Promise<ZipDirectory> {
  const lim = { ...DEFAULT_ZIP_LIMITS, ...limits };
  const problems: ZipProblem[] = [];
  const malformed = (damage: ZipDamage): ZipDirectory => ({ entries, problems: [...problems, zipDamageProblem(damage)] });
  const entries: ZipEntry[] = [];
  const tailLength = Math.min(src.size, 22 + 65535);
  const tail = await src.read(src.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail[i] === 0x50 && u32(tail, i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd === -1) return malformed({ damage: 'no-end-record' });
  let count = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  if (u16(tail, eocd + 4) !== 0 || u16(tail, eocd + 6) !== 0) return malformed({ damage: 'spanned' });
  const locator = eocd - 20;
  if (locator >= 0 && u32(tail, locator) === 0x07064b50) {
    const z64Offset = u64(tail, locator + 8);
    if (z64Offset + 56 > src.size) return malformed({ damage: 'zip64-outside' });
    const z = await src.read(z64Offset, 56);
    if (u32(z, 0) !== 0x06064b50) return malformed({ damage: 'zip64-missing' });
    count = u64(z, 32);
    cdSize = u64(z, 40);
    cdOffset = u64(z, 48);
  }
  if (count > lim.maxEntries) {
    return { entries: [], problems: [limitProblem({ limit: 'zip-entries', count, max: lim.maxEntries })] };
  }
  if (cdOffset + cdSize > src.size) return malformed({ damage: 'directory-outside' });
  if (cdSize > lim.maxDirectoryBytes) {
    return { entries: [], problems: [limitProblem({ limit: 'zip-directory', bytes: cdSize, count, max: lim.maxDirectoryBytes })] };
  }
  if (cdSize > lim.maxEntries * (46 + 3 * 65535)) return malformed({ damage: 'directory-too-large' });
  const cd = await src.read(cdOffset, cdSize);
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > cd.length || u32(cd, at) !== 0x02014b50) return malformed({ damage: 'entry', entry: k + 1, count });
    const flags = u16(cd, at + 8);
    const nameLength = u16(cd, at + 28);
    const extraLength = u16(cd, at + 30);
    const commentLength = u16(cd, at + 32);
    const name = decodeName(cd.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) !== 0);
    let size = u32(cd, at + 24);
    let compressedSize = u32(cd, at + 20);
    let localOffset = u32(cd, at + 42);
    // APPNOTE 4.5.3: the ZIP64 extra field holds, in order, the fields whose header value is 0xFFFFFFFF.
    let x = at + 46 + nameLength;
    const extraEnd = x + extraLength;
    while (x + 4 <= extraEnd) {
      const id = u16(cd, x);
      const len = u16(cd, x + 2);
      if (id === 0x0001) {
        let f = x + 4;
        if (size === 0xffffffff && f + 8 <= x + 4 + len) { size = u64(cd, f); f += 8; }
        if (compressedSize === 0xffffffff && f + 8 <= x + 4 + len) { compressedSize = u64(cd, f); f += 8; }
        if (localOffset === 0xffffffff && f + 8 <= x + 4 + len) { localOffset = u64(cd, f); f += 8; }
      }
      x += 4 + len;
    }
    entries.push({ name, method: u16(cd, at + 10), flags, crc: u32(cd, at + 16), compressedSize, size, localOffset, isDirectory: name.endsWith('/') });
    at = extraEnd + commentLength;
  }
  problems.push(...zipEntryProblems(entries, src.size, lim));
  return { entries, problems };
}

export interface EntryRead {
  /** Output stopped at the limit. */
  truncated: boolean;
  /** More came out than the directory declares. */
  oversize: boolean;
  error?: string;
}

/** Compressed bytes are inflated this many at a time, so one step of a bomb makes at most ~1,000 times this. */
const STEP = 32 * 1024;
/** Deflate input handed to the inflater at once: deflate expands at most 1032 to 1, so about 1 MiB comes out. */
const PUSH = 1024;

/**
 * Reads an entry's content (APPNOTE 4.3.7 local header, then the data) a piece at a time into `onData`, and
 * stops once `limit` bytes came out, so a bomb costs bounded time and memory; or as soon as `onData` returns
 * false (it wants no more: nothing more is inflated).
 */
export async function readZipEntry(src: RandomAccess, entry: ZipEntry, limit: number, onData: (data: Uint8Array) => unknown, step = STEP): Promise<EntryRead> {
  const header = await src.read(entry.localOffset, 30);
  if (header.length < 30 || u32(header, 0) !== 0x04034b50) return { truncated: false, oversize: false, error: 'its local header is missing' };
  const start = entry.localOffset + 30 + u16(header, 26) + u16(header, 28);
  const end = Math.min(src.size, start + entry.compressedSize);
  let out = 0;
  let oversize = false;
  let failed: string | undefined;
  // Inflated pieces of one step are handed over (and awaited) before the next step is read.
  const pieces: Uint8Array[] = [];
  const take = (d: Uint8Array) => {
    if (out >= limit || d.length === 0) return;
    const piece = out + d.length > limit ? d.subarray(0, limit - out) : d;
    out += d.length;
    if (out > entry.size) oversize = true;
    pieces.push(piece);
  };
  const inflate = entry.method === 8 ? new Inflate((d) => take(d)) : null;
  if (entry.method !== 8 && entry.method !== 0) return { truncated: false, oversize: false, error: `compression method ${entry.method} is not read` };
  let unwanted = false;
  const hand = async () => {
    for (const p of pieces.splice(0)) {
      if (!unwanted && (await onData(p)) === false) unwanted = true;
    }
  };
  for (let at = start; at < end && out < limit && !oversize && !unwanted; at += step) {
    const chunk = await src.read(at, Math.min(step, end - at));
    try {
      if (!inflate) take(chunk);
      // In small pieces, so that a lying entry stops within about 1 MiB of its limit, not a whole chunk's 33 MiB.
      for (let k = 0; inflate && k < chunk.length && out < limit && !oversize; k += PUSH) {
        inflate.push(chunk.subarray(k, k + PUSH), at + chunk.length >= end && k + PUSH >= chunk.length);
      }
    } catch (error) {
      failed = `its deflate data is damaged (${error instanceof Error ? error.message : String(error)})`;
      break;
    }
    await hand();
  }
  await hand();
  const result: EntryRead = { truncated: out >= limit && out < entry.size, oversize };
  if (failed) result.error = failed;
  return result;
}

export { isZip } from './magic-zip.js';
