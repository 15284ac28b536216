// A unified diff of a rewrite (fix, rebase) that `git apply` and `patch` both take: jsdiff's createTwoFilesPatch
// of the whole text before and after, three lines of context, each line's own end (a CRLF line stays CRLF).
// A diff is output like any other: passwords, FileSpec/@Password and NetworkHeader values are masked in it, on
// both sides and in the context. A hunk that holds one then no longer matches the file, so the patch says how
// many lines it masked, and the command tells the user that those hunks will not apply.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { redactPassword, redactText } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import type { Edit } from '../ticket/rewrite.js';

export interface MaskedPatch {
  /** The unified diff, secrets masked. */
  text: string;
  /** Lines of the diff in which a secret was masked: where they stand, the patch does not apply. */
  maskedLines: number;
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

/**
 * The diff of `text` (the file's content, decoded) before and after `edits`, to be applied at `path`; a relative
 * path gets git's a/ and b/ prefixes. Empty when nothing changes.
 */
export function rewritePatch(path: string, text: string, edits: readonly Edit[]): MaskedPatch {
  if (edits.length === 0) return { text: '', maskedLines: 0 };
  // The values being changed lose a URL password in the "before" side too: fix removes it from what it writes.
  const before = applyEdits(text, edits, (e) => redactPassword(text.slice(e.span[0], e.span[1])));
  const after = applyEdits(text, edits, (e) => e.written);
  const name = path.split('\\').join('/');
  const absolute = name.startsWith('/');
  const plain = createTwoFilesPatch(absolute ? name : `a/${name}`, absolute ? name : `b/${name}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  const lines = plain.split('\n');
  let maskedLines = 0;
  const masked = lines.map((line) => {
    const out = redactSecrets(redactText(line));
    if (out !== line) maskedLines++;
    return out;
  });
  return { text: masked.join('\n'), maskedLines };
}

/** The note a command prints (on standard error) beside a patch that had to mask secrets. */
export function maskedNote(path: string, patch: MaskedPatch): string | undefined {
  if (patch.maskedLines === 0) return undefined;
  return `${path}: the diff masks secrets on ${patch.maskedLines} line${patch.maskedLines === 1 ? '' : 's'} (passwords, FileSpec/@Password, NetworkHeader values), so git apply and patch will not apply the hunks that hold them; run without --dry-run to write the change`;
}
