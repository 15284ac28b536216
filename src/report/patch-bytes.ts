// A diff's hunks in the bytes of the file they apply to. `git apply` and `patch` read a patch as bytes and compare
// its lines with the file's, a line ending after each 0x0A byte: so each hunk line is the file's own bytes (its
// encoding, a BOM on the first line), and the file names in the header are the file system's (UTF-8). In UTF-16 a
// text line is not a byte line: "\n" is 0A 00 (LE) or 00 0A (BE), and a character such as U+010A holds a 0A byte
// of its own; the line numbers and counts of each hunk are worked out in byte lines.
import { charsetForLabel, isSingleByte, singleByteOctet, type Charset } from '../escape/charsets.js';
import { concat } from '../util/concat.js';

/** The file a diff applies to: its charset (as the decoder names it) and whether it starts with a BOM. */
export interface FileBytes {
  charset: string;
  bom: boolean;
}

const utf8 = new TextEncoder();
const NO_NEWLINE = utf8.encode('\n\\ No newline at end of file\n');
const LF = 0x0a;

const BOMS: Partial<Record<Charset, number[]>> = { 'utf-8': [0xef, 0xbb, 0xbf], 'utf-16le': [0xff, 0xfe], 'utf-16be': [0xfe, 0xff] };

/** The text in the charset (the decoded text of the file, so every character has its bytes there). */
function encode(s: string, charset: Charset): number[] {
  const out: number[] = [];
  if (charset === 'utf-16le' || charset === 'utf-16be') {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (charset === 'utf-16le') out.push(c & 0xff, c >> 8);
      else out.push(c >> 8, c & 0xff);
    }
  } else if (isSingleByte(charset)) {
    for (const ch of s) out.push(singleByteOctet(ch.codePointAt(0)!, charset) ?? 0x3f);
  } else {
    for (const b of utf8.encode(s)) out.push(b);
  }
  return out;
}

/** A character other than "\n" whose UTF-16 code unit holds a 0A byte: a line break to `git apply`. */
const breaksLine = (c: number): boolean => c !== LF && ((c & 0xff) === LF || c >> 8 === LF);

/**
 * For each text line of a UTF-16 text (from 0), how many byte lines lie before it beyond one per text line (the
 * characters before it that hold a 0A byte); null where there are none, as in any other encoding.
 */
function extraLines(text: string, charset: Charset): number[] | null {
  if (charset !== 'utf-16le' && charset !== 'utf-16be') return null;
  let any = false;
  for (let i = 0; i < text.length && !any; i++) any = breaksLine(text.charCodeAt(i));
  if (!any) return null;
  const extra = [0];
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) extra.push(count);
    else if (breaksLine(c)) count++;
  }
  return extra;
}

/** How many text lines a text has, as jsdiff counts them (a last line without "\n" counts). */
const textLines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * The bytes of text line `index` (its content without "\n", and whether the "\n" follows) as byte lines: the BOM
 * before the first; in UTF-16LE, the 00 that ends the previous line's "\n" before every other.
 */
function byteLines(content: string, newline: boolean, index: number, file: FileBytes, charset: Charset): number[][] {
  const bytes = [...(index === 0 && file.bom ? BOMS[charset] ?? [] : []), ...(index > 0 && charset === 'utf-16le' ? [0] : []), ...encode(content, charset)];
  if (newline) bytes.push(...(charset === 'utf-16le' ? [LF] : charset === 'utf-16be' ? [0, LF] : [LF]));
  const out: number[][] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF) {
      out.push(bytes.slice(from, i + 1));
      from = i + 1;
    }
  }
  if (from < bytes.length) out.push(bytes.slice(from));
  return out;
}

/**
 * The unified diff `patch` (jsdiff's, with file headers, made from the decoded text `before` of the file and the
 * fixed text `after`) as the bytes `git apply` and `patch` apply to the file.
 */
export function patchBytes(patch: string, file: FileBytes, before: string, after: () => string): Uint8Array {
  const charset = charsetForLabel(file.charset) ?? 'utf-8';
  if (charset === 'utf-8' && !file.bom) return utf8.encode(patch);
  const extra = { old: extraLines(before, charset), new: extraLines(charset.startsWith('utf-16') ? after() : '', charset) };
  const lastOld = textLines(before);
  const parts: Uint8Array[] = [];
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let i = 0;
  for (; i < lines.length && !lines[i]!.startsWith('@@'); i++) parts.push(utf8.encode(lines[i] + '\n'));
  while (i < lines.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i]!)!;
    const oldFirst = Number(m[2] ?? 1) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    const newFirst = Number(m[4] ?? 1) === 0 ? Number(m[3]) : Number(m[3]) - 1;
    const body: number[] = [];
    let oldAt = oldFirst;
    let newAt = newFirst;
    let oldCount = 0;
    let newCount = 0;
    let endedWithNewline = true;
    for (i++; i < lines.length && !lines[i]!.startsWith('@@'); i++) {
      const line = lines[i]!;
      if (line.startsWith('\\')) continue;
      const kind = line.charCodeAt(0);
      const newline = lines[i + 1]?.startsWith('\\') !== true;
      const pieces = byteLines(line.slice(1), newline, kind === 0x2b ? newAt : oldAt, file, charset);
      for (const piece of pieces) {
        body.push(kind, ...piece);
        if (piece.at(-1) !== LF) body.push(...NO_NEWLINE);
      }
      if (kind !== 0x2b) { oldAt++; oldCount += pieces.length; }
      if (kind !== 0x2d) { newAt++; newCount += pieces.length; }
      if (kind !== 0x2b) endedWithNewline = newline;
    }
    // UTF-16LE: a text that ends with "\n" ends with its 00, a byte line of its own without a newline.
    if (charset === 'utf-16le' && oldAt === lastOld && endedWithNewline && before.endsWith('\n')) {
      body.push(0x20, 0, ...NO_NEWLINE);
      oldCount++;
      newCount++;
    }
    const start = (first: number, count: number, more: number[] | null) => first + (more?.[first] ?? 0) + (count === 0 ? 0 : 1);
    parts.push(utf8.encode(`@@ -${start(oldFirst, oldCount, extra.old)},${oldCount} +${start(newFirst, newCount, extra.new)},${newCount} @@\n`), Uint8Array.from(body));
  }
  return concat(parts);
}
