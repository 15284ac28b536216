// A unified diff of a rewrite (fix, rebase) that `git apply` and `patch` both take: jsdiff's, three lines of
// context, each line's own end (a CRLF line stays CRLF). Myers' diff is O(N*D) on the text it is given, and a ticket
// can carry 150,000 fixes a few lines apart, so jsdiff only sees the lines an edit touches (a run of adjacent lines,
// with its context); hunks closer than 2 * 3 unchanged lines are joined as jsdiff joins them, so the patch is the
// one jsdiff gives for the whole text (test/fix-diff.test.ts holds it to that).
// A diff is output like any other: passwords, FileSpec/@Password and NetworkHeader values are masked in it, on
// both sides and in the context. A hunk that holds one then no longer matches the file, so the patch says how
// many lines it masked, and the command tells the user that those hunks will not apply.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import { redactPassword, redactText } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import type { Edit } from '../ticket/rewrite.js';
import { patchBytes, type FileBytes } from './patch-bytes.js';

export interface MaskedPatch {
  /** The unified diff, secrets masked. */
  text: string;
  /** Lines of the diff in which a secret was masked: where they stand, the patch does not apply. */
  maskedLines: number;
  /** The diff as bytes: the file names in UTF-8, each hunk in the bytes of the file (src/report/patch-bytes.ts). */
  bytes: Uint8Array;
}

/** `text` with each edit's span replaced by what `replace` gives for it. */
function applyEdits(text: string, edits: readonly Edit[], replace: (e: Edit) => string): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.span[0]) + replace(e);
    at = e.span[1];
  }
  return out + text.slice(at);
}

const CONTEXT = 3;

/** Offsets at which each line of `text` starts; a line ends after its "\n", as jsdiff splits them. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1 && at + 1 < text.length; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The line (from 0) that holds offset `at`, searching `starts` from line `from` on. */
function lineAt(starts: readonly number[], at: number, from: number): number {
  let line = from;
  while (line + 1 < starts.length && starts[line + 1]! <= at) line++;
  return line;
}

interface Run { first: number; last: number; edits: Edit[] }

/** The edits cut into runs of adjacent lines (from 0): jsdiff gives a run's removed lines, then its added ones. */
function runs(starts: readonly number[], edits: readonly Edit[]): Run[] {
  const out: Run[] = [];
  let line = 0;
  for (const e of edits) {
    const first = lineAt(starts, e.span[0], line);
    line = lineAt(starts, Math.max(e.span[0], e.span[1] - 1), first);
    const open = out.at(-1);
    if (open && first <= open.last + 1) {
      open.last = Math.max(open.last, line);
      open.edits.push(e);
    } else out.push({ first, last: line, edits: [e] });
  }
  return out;
}

/** How many context lines a hunk's lines start with. */
function leadingContext(lines: readonly string[]): number {
  let n = 0;
  while (n < lines.length && lines[n]!.startsWith(' ')) n++;
  return n;
}

/** How many context lines a hunk's lines end with, before the last `skip`. */
function trailingContext(lines: readonly string[], skip: number): number {
  let n = 0;
  while (n + skip < lines.length && lines[lines.length - 1 - skip - n]!.startsWith(' ')) n++;
  return n;
}

/**
 * Joins `next` to `last` (in place) when at most 2 * CONTEXT unchanged lines lie between their changes, as jsdiff
 * joins them, the lines between taken from `text`; false when they stay apart.
 */
function join(last: StructuredPatchHunk, next: StructuredPatchHunk, text: string, starts: readonly number[]): boolean {
  // `last` may have reached the end of the file in its context: its "\ No newline" marker goes with that context.
  const marker = last.lines.at(-1)!.startsWith('\\') && last.lines.at(-2)?.startsWith(' ') === true ? 1 : 0;
  const trailing = trailingContext(last.lines, marker);
  const leading = leadingContext(next.lines);
  const gapFrom = last.oldStart + last.oldLines - trailing; // the first unchanged line after `last`'s changes, from 1
  const gapTo = next.oldStart + leading; // `next`'s first changed line, from 1
  if (gapTo - gapFrom > 2 * CONTEXT) return false;
  last.lines.length -= trailing + marker;
  for (let line = gapFrom - 1; line < gapTo - 1; line++) last.lines.push(' ' + text.slice(starts[line], starts[line + 1]! - 1));
  for (const line of next.lines.slice(leading)) last.lines.push(line);
  last.oldLines = next.oldStart + next.oldLines - last.oldStart;
  last.newLines = next.newStart + next.newLines - last.newStart;
  return true;
}

/**
 * The diff of `text` (the file's content, decoded) before and after `edits` (in order, not overlapping), to be
 * applied at `path`; a relative path gets git's a/ and b/ prefixes. Empty when nothing changes. `file` says how
 * the file's bytes hold the text (UTF-8 without a BOM where not given): the diff's bytes are made so.
 */
export function rewritePatch(path: string, text: string, edits: readonly Edit[], file: FileBytes = { charset: 'UTF-8', bom: false }): MaskedPatch {
  if (edits.length === 0) return { text: '', maskedLines: 0, bytes: new Uint8Array(0) };
  const starts = lineStarts(text);
  const hunks: StructuredPatchHunk[] = [];
  let shift = 0;
  for (const run of runs(starts, edits)) {
    const from = Math.max(0, run.first - CONTEXT);
    const to = Math.min(starts.length, run.last + CONTEXT + 1);
    const start = starts[from]!;
    const slice = text.slice(start, to < starts.length ? starts[to] : text.length);
    const local = run.edits.map((e): Edit => ({ ...e, span: [e.span[0] - start, e.span[1] - start] }));
    // The values being changed lose a URL password in the "before" side too: fix removes it from what it writes.
    const before = applyEdits(slice, local, (e) => redactPassword(slice.slice(e.span[0], e.span[1])));
    const after = applyEdits(slice, local, (e) => e.written);
    for (const h of structuredPatch('', '', before, after, undefined, undefined, { context: CONTEXT }).hunks) {
      const moved = { ...h, oldStart: h.oldStart + from, newStart: h.newStart + from + shift };
      const last = hunks.at(-1);
      if (!last || !join(last, moved, text, starts)) hunks.push(moved);
    }
    shift += lineStarts(after).length - lineStarts(before).length;
  }
  const name = path.split('\\').join('/');
  const absolute = name.startsWith('/');
  const plain = formatPatch({ oldFileName: absolute ? name : `a/${name}`, newFileName: absolute ? name : `b/${name}`, oldHeader: undefined, newHeader: undefined, hunks }, FILE_HEADERS_ONLY);
  const lines = plain.split('\n');
  let maskedLines = 0;
  const masked = lines.map((line) => {
    const out = redactSecrets(redactText(line));
    if (out !== line) maskedLines++;
    return out;
  });
  const patch = masked.join('\n');
  return { text: patch, maskedLines, bytes: patchBytes(patch, file, text, () => applyEdits(text, edits, (e) => e.written)) };
}

/** The note a command prints (on standard error) beside a patch that had to mask secrets. */
export function maskedNote(path: string, patch: MaskedPatch): string | undefined {
  if (patch.maskedLines === 0) return undefined;
  return `${path}: the diff masks secrets on ${patch.maskedLines} line${patch.maskedLines === 1 ? '' : 's'} (passwords, FileSpec/@Password, NetworkHeader values), so git apply and patch will not apply the hunks that hold them; run without --dry-run to write the change`;
}
