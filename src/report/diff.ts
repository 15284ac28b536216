// A unified diff of a fix, line by line (only attribute values change, so every hunk is one line).
import { redactPassword, redactText } from '../fileurl/redact.js';
import type { Edit } from '../ticket/rewrite.js';

/** The lines of `text`, split at CRLF, CR or LF. */
function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function unifiedDiff(path: string, text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return '';
  // The old side shows each changed value with any password masked: a diff is output like any other.
  let shownBefore = '';
  let from = 0;
  for (const e of edits) {
    shownBefore += text.slice(from, e.span[0]) + redactPassword(text.slice(e.span[0], e.span[1]));
    from = e.span[1];
  }
  shownBefore += text.slice(from);
  const lines = splitLines(shownBefore);
  const changed = new Map<number, string>();
  // Apply the edits to the text, then compare line by line: values may hold character references, not line breaks.
  let after = '';
  let at = 0;
  for (const e of edits) {
    after += text.slice(at, e.span[0]) + e.written;
    at = e.span[1];
  }
  after += text.slice(at);
  const newLines = splitLines(after);
  for (let i = 0; i < lines.length; i++) if (lines[i] !== newLines[i]) changed.set(i, newLines[i]!);
  const shown = path.startsWith('/') ? path : `a/${path}`;
  const out = [`--- ${shown}`, `+++ ${path.startsWith('/') ? path : `b/${path}`}`];
  for (const [i, line] of changed) out.push(`@@ -${i + 1} +${i + 1} @@`, `-${lines[i]}`, `+${line}`);
  // Unchanged values on a changed line are shown too: every password on the lines shown is masked.
  return redactText(out.join('\n')) + '\n';
}
