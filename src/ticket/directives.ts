// Inline directives, as ESLint reads its own: an XML comment that silences findings in one place.
//   <!-- jdf-filespec-disable-next-line CODE, CODE - reason -->  the next element's start tag (its attributes)
//   <!-- jdf-filespec-disable CODE -->  from here ...  <!-- jdf-filespec-enable CODE -->  ... to here (or the end)
// No code: every rule. A reason follows " - " (or ESLint's " -- ", which XML does not allow in a comment).
import { nearest } from '../rules/settings.js';
import type { ElementTree } from './xml/index.js';

export type DirectiveKind = 'disable-next-line' | 'disable' | 'enable';

export interface DirectiveComment {
  kind: DirectiveKind;
  /** Offset of the comment's "<!--". */
  offset: number;
  justification?: string;
}

/** What one disabling directive silences for one code ("*": every rule), between two offsets [from, to). */
export interface Silenced {
  directive: DirectiveComment;
  code: string;
  from: number;
  to: number;
}

export interface DirectiveProblem {
  /** Offset of the name in the text. */
  offset: number;
  args: { directive: string; name: string; near: string };
}

export interface Directives {
  /** The disabling directives' spans, in the order of the text. */
  silenced: Silenced[];
  /** The disabling directives (each one reported once when it silences nothing). */
  disabling: DirectiveComment[];
  problems: DirectiveProblem[];
}

const DIRECTIVE = /<!--\s*jdf-filespec-(disable-next-line|disable|enable)(?=\s|-->)([\s\S]*?)-->/g;

/** The directives of a ticket's comments; `known` says which codes are rules. None at all without "jdf-filespec-" in the text. */
export function readDirectives(text: string, tree: ElementTree, known: ReadonlySet<string>): Directives | undefined {
  if (text.indexOf('jdf-filespec-') === -1) return undefined;
  const out: Directives = { silenced: [], disabling: [], problems: [] };
  const open: Silenced[] = [];
  for (const m of text.matchAll(DIRECTIVE)) {
    const kind = m[1] as DirectiveKind;
    const offset = m.index;
    const bodyAt = offset + m[0].length - 3 - m[2]!.length;
    const { names, justification } = splitBody(m[2]!);
    const directive: DirectiveComment = { kind, offset, ...(justification !== undefined ? { justification } : {}) };
    const codes: string[] = [];
    for (const n of names) {
      if (known.has(n.name)) codes.push(n.name);
      else out.problems.push({ offset: bodyAt + n.at, args: { directive: `jdf-filespec-${kind}`, name: n.name, near: nearest(n.name, known) ?? '' } });
    }
    // Codes named and none a rule: it silences nothing (not every rule).
    if (names.length > 0 && codes.length === 0) continue;
    const end = offset + m[0].length;
    if (kind === 'enable') {
      for (const s of open) if (s.to === text.length && (codes.length === 0 || codes.includes(s.code))) s.to = offset;
      continue;
    }
    out.disabling.push(directive);
    const [from, to] = kind === 'disable' ? [end, text.length] : nextStartTag(text, tree, end);
    for (const code of codes.length > 0 ? codes : ['*']) {
      const s = { directive, code, from, to };
      out.silenced.push(s);
      if (kind === 'disable') open.push(s);
    }
  }
  return out;
}

/** The rule names of a directive's text, each with its index there, and the reason after " -- " or " - ". */
function splitBody(body: string): { names: Array<{ name: string; at: number }>; justification?: string } {
  const cut = /\s--\s|\s-\s|\s--?$/.exec(body);
  const list = cut ? body.slice(0, cut.index) : body;
  const reason = cut ? body.slice(cut.index + cut[0].length).trim() : '';
  const names: Array<{ name: string; at: number }> = [];
  for (const n of list.matchAll(/[^\s,]+/g)) names.push({ name: n[0], at: n.index });
  return reason !== '' ? { names, justification: reason } : { names };
}

/** [start, end) of the first start tag after `from` (its "<" to its ">"); empty when there is none. */
function nextStartTag(text: string, tree: ElementTree, from: number): [number, number] {
  let lo = 0;
  let hi = tree.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tree.start(mid) < from) lo = mid + 1;
    else hi = mid;
  }
  if (lo === tree.size) return [from, from];
  const start = tree.start(lo);
  let quote = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return [start, i + 1];
  }
  return [start, text.length];
}
