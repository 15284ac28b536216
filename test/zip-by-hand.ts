// A zip writer for tests, written from PKWARE APPNOTE 4.3 with Node's zlib (deflateRawSync, crc32): the zips the
// package tests read are made here, not by our own pack. Each field can be overridden to build hostile zips.
import { crc32, deflateRawSync } from 'node:zlib';

export interface HandEntry {
  name: string;
  data?: Uint8Array | string;
  deflate?: boolean;
  /** Lie in the directory: declared sizes, offset. */
  declaredSize?: number;
  declaredCompressed?: number;
  localOffset?: number;
  flags?: number;
  method?: number;
  /** The entry's comment in the central directory (APPNOTE 4.4.13, up to 65,535 bytes). */
  comment?: Uint8Array | string;
}

export function handZip(entries: HandEntry[], options: { declaredCount?: number; cut?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : Buffer.from(e.data ?? new Uint8Array(0));
    const body = e.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const method = e.method ?? (e.deflate ? 8 : 0);
    const flags = (e.flags ?? 0) | 0x800;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(flags, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(e.declaredCompressed ?? body.length, 20);
    cd.writeUInt32LE(e.declaredSize ?? raw.length, 24);
    cd.writeUInt16LE(name.length, 28);
    const comment = typeof e.comment === 'string' ? Buffer.from(e.comment, 'utf8') : Buffer.from(e.comment ?? new Uint8Array(0));
    cd.writeUInt16LE(comment.length, 32);
    cd.writeUInt32LE(e.localOffset ?? offset, 42);
    central.push(cd, name, comment);
    offset += 30 + name.length + body.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = Math.min(0xffff, options.declaredCount ?? entries.length);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  const whole = Buffer.concat([...locals, cdBytes, end]);
  return options.cut !== undefined ? whole.subarray(0, options.cut) : whole;
}
