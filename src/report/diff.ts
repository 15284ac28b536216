// A unified diff of a fix, with three lines of context, that `git apply` and `patch` both take: jsdiff
// (createTwoFilesPatch) writes it, keeping each line's own end (a CRLF line stays CRLF in the diff).
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { redactPassword, redactText } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import type { Edit } from '../ticket/rewrite.js';

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

/**
 * The diff of `text` (the file's content, decoded) before and after `edits`. Passwords are masked on both sides
 * and in the context (a diff is output like any other): a hunk with a password in it shows it masked, and so
 * does not apply; the fix itself removes passwords from the values it changes.
 */
export function unifiedDiff(path: string, text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return '';
  const before = applyEdits(text, edits, (e) => redactPassword(text.slice(e.span[0], e.span[1])));
  const after = applyEdits(text, edits, (e) => e.written);
  const absolute = path.startsWith('/');
  const name = path.split('\\').join('/');
  const patch = createTwoFilesPatch(absolute ? name : `a/${name}`, absolute ? name : `b/${name}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  return redactSecrets(redactText(patch)); // and FileSpec/@Password, NetworkHeader values
}
