import type { CheckContext, Edit, Profile, RuleMeta, Severity } from './types.js';

/** Severities for [jdf, rfc8089, lenient]. */
export function sev(jdf: Severity | null, rfc8089: Severity | null, lenient: Severity | null): Record<Profile, Severity | null> {
  return { jdf, rfc8089, lenient };
}

export function examples(flagged: RuleMeta['examples']['flagged'], clean: RuleMeta['examples']['clean']): RuleMeta['examples'] {
  return { flagged, clean };
}

/**
 * Every character of `core` from index `from` on for which `test` holds replaced with `replace(ch)`, as the one
 * span from the first such character to the last (indexes in `core`); undefined when there is none. `count`, where
 * it is known how many there are, ends the search at the last of them.
 */
export function replacedSpan(core: string, test: (c: number, i: number) => boolean, replace: (ch: string) => string, from = 0, count = Infinity): Edit | undefined {
  let text = '';
  let start = -1;
  let copied = from; // the characters before it that need no change are copied as one slice
  let left = count;
  for (let i = from; i < core.length && left > 0; i++) {
    if (!test(core.charCodeAt(i), i)) continue;
    const ch = String.fromCodePoint(core.codePointAt(i)!);
    if (start === -1) start = copied = i;
    text += core.slice(copied, i) + replace(ch);
    i += ch.length - 1;
    copied = i + 1;
    left--;
  }
  return start === -1 ? undefined : { start, end: copied, text };
}

/** `text` from index `from` on, every "\\" written "/" (RFC 8089 E.4: a separator). */
export function slashesFor(text: string, from: number): string {
  let out = '';
  let copied = from;
  for (let i = text.indexOf('\\', from); i !== -1; i = text.indexOf('\\', i + 1)) {
    out += text.slice(copied, i) + '/';
    copied = i + 1;
  }
  return out + text.slice(copied);
}

/** A character as it can be shown in a message: printable, or as U+XXXX. */
export function showChar(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return 'U+' + c.toString(16).toUpperCase().padStart(4, '0');
  return `'${ch}'`;
}

/** The whole value with the reference's path replaced. */
export function withPath(ctx: CheckContext, path: string): string {
  const start = ctx.pathStart - ctx.lead;
  return ctx.withCore(ctx.core.slice(0, start) + path + ctx.core.slice(start + ctx.ref.path.length));
}

/**
 * "file://file:/c:/..." : the scheme written twice, so that "file:" becomes a host with an empty port; or
 * "file:file:///c:/...", where the second URL is read as a relative path.
 */
export const isDoubledScheme = (ctx: CheckContext): boolean =>
  ctx.scheme === 'file' && (ctx.ref.authority !== undefined ? /^file:$/i.test(ctx.ref.authority) : /^file:/i.test(ctx.ref.path));

/** An authority that starts with '\\', or with '\\\\' percent-escaped: a UNC path pasted after "file://" (RFC 8089 E.3.1). */
export const isUncAuthority = (authority: string): boolean => authority.startsWith('\\') || isEscapedUncAuthority(authority);

/** "file://%5C%5Cserver%5Cshare%5Ca.pdf": a UNC path pasted after "file://" with its backslashes escaped. */
export const isEscapedUncAuthority = (authority: string): boolean => /^%5c%5c/i.test(authority);
