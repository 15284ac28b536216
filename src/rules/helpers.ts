import type { Profile, RuleMeta, Severity } from './types.js';

/** Severities for [jdf, rfc8089, lenient]. */
export function sev(jdf: Severity | null, rfc8089: Severity | null, lenient: Severity | null): Record<Profile, Severity | null> {
  return { jdf, rfc8089, lenient };
}

export function examples(flagged: RuleMeta['examples']['flagged'], clean: RuleMeta['examples']['clean']): RuleMeta['examples'] {
  return { flagged, clean };
}

/** Replaces every character of `core` for which `test` holds with `replace(ch)`. */
export function replaceChars(core: string, test: (c: number, i: number) => boolean, replace: (ch: string) => string): string {
  let out = '';
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i);
    if (test(c, i)) {
      const cp = core.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += replace(ch);
      i += ch.length - 1;
    } else {
      out += core[i];
    }
  }
  return out;
}

/** A character as it can be shown in a message: printable, or as U+XXXX. */
export function showChar(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return 'U+' + c.toString(16).toUpperCase().padStart(4, '0');
  return `'${ch}'`;
}
