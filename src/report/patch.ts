// A patch of a rewrite that `git apply` and `patch` accept: jsdiff's unified diff of the whole text before and
// after, with three lines of context and each line's own ending (CRLF stays CRLF). Passwords and other secrets
// are masked on both sides, as everywhere we show ticket text.
import { createTwoFilesPatch } from 'diff';
import { redactText } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import type { Edit } from '../ticket/rewrite.js';

export function rewritePatch(path: string, text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return '';
  let after = '';
  let at = 0;
  for (const e of edits) {
    after += text.slice(at, e.span[0]) + e.written;
    at = e.span[1];
  }
  after += text.slice(at);
  const mask = (s: string) => redactSecrets(redactText(s));
  const absolute = path.startsWith('/');
  const patch = createTwoFilesPatch(absolute ? path : `a/${path}`, absolute ? path : `b/${path}`, mask(text), mask(after), undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-style rule line that neither tool needs.
  return patch.replace(/^=+\n/, '');
}
