// rebase: a ticket rewritten for another machine. Every URL and Directory that a view of the table maps gets
// the other view's prefix; the rest of each value stays exactly as written (its escaping, its case), and every
// byte outside the changed values stays as it was (applyEdits). Pure: the caller reads and writes the file.
import { decodeAttributeValue } from '../ticket/xml/index.js';
import { escapeForAttribute, type Edit, type FixPlan, type Skipped } from '../ticket/rewrite.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import { resolveReference } from '../uri/resolve.js';
import { matchView } from './match.js';
import { prefixUrl } from './build.js';
import { inView } from './translate.js';
import type { ViewTable } from './types.js';

export interface RebaseOptions {
  /** Only values under this view's prefixes (default: every view but the target). */
  from?: string;
  /** The view to rewrite for... */
  to?: string;
  /** ...or a literal prefix instead of a view. */
  toPrefix?: string;
  /** Make relative references absolute too (default: they stay relative, following their Directory). */
  absolute?: boolean;
  /** Fold each RunList's (and Preview's) Directory into the URLs under it, and drop it (XJDF has no Directory). */
  foldDirectory?: boolean;
}

/** The table with only `view`'s entries (to match values under that view), or without them. */
function restricted(table: ViewTable, view: string, keep: boolean): ViewTable {
  return { ...table, storages: table.storages.map((s) => ({ ...s, entries: s.entries.filter((e) => (e.view === view) === keep) })) };
}

/** A Directory that bases URLs (RunList, Preview), not Device/@Directory. */
export function basesUrls(ref: TicketReference): boolean {
  return ref.attribute === 'Directory' && /\/(?:[\w-]+:)?(?:RunList|Preview)(?:\[[^\]]*\])?$/.test(ref.element);
}

/** The whole attribute ` Directory="..."` with the white space before it, for dropping it. */
export function attributeSpan(text: string, span: [number, number]): [number, number] {
  let i = span[0] - 1; // the opening quote
  i--;
  while (i > 0 && /\s/.test(text[i]!)) i--;
  if (text[i] !== '=') return span;
  i--;
  while (i > 0 && /\s/.test(text[i]!)) i--;
  while (i > 0 && /[^\s<"'=]/.test(text[i - 1]!)) i--;
  let start = i;
  while (start > 0 && /\s/.test(text[start - 1]!)) start--;
  return [start, span[1] + 1];
}

export function planRebase(text: string, report: TicketReport, table: ViewTable, options: RebaseOptions): FixPlan {
  const fromTable = options.from !== undefined ? restricted(table, options.from, true) : options.to !== undefined ? restricted(table, options.to, false) : table;
  const toPrefix = options.toPrefix !== undefined ? prefixUrl(options.toPrefix) : undefined;
  const bySpan = new Map<string, TicketReference[]>();
  for (const ref of report.references) {
    const key = `${ref.span[0]}:${ref.span[1]}`;
    const uses = bySpan.get(key);
    if (uses) uses.push(ref);
    else bySpan.set(key, [ref]);
  }
  const edits: Edit[] = [];
  const skipped: Skipped[] = [];
  for (const uses of bySpan.values()) {
    const ref = uses[0]!;
    const where = { line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute };
    // The value as the file holds it, XML-decoded, with any password (the report's value masks it).
    const decoded = decodeAttributeValue(text, ref.span[0], ref.span[1]);
    const raw = decoded.value;
    const skip = (to: string, reason: string) => skipped.push({ ...where, value: ref.value, fixed: to, reason });
    if (options.foldDirectory && ref.role === 'directory' && basesUrls(ref)) {
      const span = attributeSpan(text, ref.span);
      edits.push({ ...where, span, from: text.slice(span[0], span[1]), to: '', written: '' });
      continue;
    }
    const folding = options.foldDirectory === true && ref.kind !== 'absolute' && uses.every((u) => u.baseSource === 'directory');
    if (ref.kind === 'relative-path' && !options.absolute && !folding) continue; // follows its Directory
    const targets = new Set<string>();
    let why: string | undefined;
    for (const use of uses) {
      let source = raw.trim();
      if (ref.kind !== 'absolute') {
        if (use.base === null) {
          why = 'the reference has no base, so which file it names is unknown';
          break;
        }
        source = resolveReference(source, use.base);
      }
      const found = matchView(source, fromTable);
      // The row as the whole table has it: the restricted one lacks the target's entries.
      const match = found && { ...found, storage: table.storages.find((s) => s.name === found.storage.name)! };
      if (!match) {
        targets.add(folding || (options.absolute && ref.kind !== 'absolute') ? source : raw);
        continue;
      }
      if (toPrefix !== undefined) {
        targets.add(toPrefix + match.rest + match.suffix);
        continue;
      }
      const named = inView(match, options.to!);
      if (!named) {
        why = `the view '${options.to}' has no prefix in the storage '${match.storage.name}'${match.drive === undefined ? '' : ' that can hold a drive letter'}`;
        break;
      }
      targets.add(named.url);
    }
    if (why === undefined && targets.size > 1) why = 'the value is reached through several rRefs and would need different values';
    const to = [...targets][0] ?? raw;
    if (why !== undefined) {
      skip(to, why);
      continue;
    }
    if (to === raw) continue;
    const quote = text[ref.span[0] - 1] === "'" ? "'" : '"';
    // The tail the new value shares with the old one is copied as the file writes it (character references too).
    let common = 0;
    while (common < raw.length && common < to.length && raw[raw.length - 1 - common] === to[to.length - 1 - common]) common++;
    const tailStart = common === 0 ? ref.span[1] : (decoded.offsets?.[raw.length - common] ?? ref.span[0] + raw.length - common);
    const written = escapeForAttribute(to.slice(0, to.length - common), quote, report.encoding) + text.slice(tailStart, ref.span[1]);
    edits.push({ ...where, span: ref.span, from: text.slice(ref.span[0], ref.span[1]), to, written });
  }
  edits.sort((a, b) => a.span[0] - b.span[0]);
  return { edits, skipped };
}
