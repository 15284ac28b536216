// Where a missing file really is. With --check-exists, a file-missing reference is looked for under the
// deepest folder of its path that exists (never above --root): another case in any component, NFC against
// NFD, a name that holds a literal "%20" (escaped twice, or not at all), Latin-1 bytes where UTF-8 was meant,
// and the Directory's last segment dropped (no trailing "/") or doubled. One unique candidate is named, with
// the corrected URL as a suggestion (never a fix: `fix` does not look at the file system, so it never writes
// it) where the URL can say it. Bounded: one listing per folder, cached for the ticket.
import { utf8Escapes } from '../package/names.js';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { utf8Strict } from '../escape/charsets.js';
import { decodeSegment, escapeSegment } from '../escape/percent.js';
import { redactText, stripPassword } from '../fileurl/redact.js';
import { copyFinding, restateFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import { resolveReference } from '../uri/resolve.js';
import { mapReference } from '../views/map.js';
import type { ViewTable } from '../views/types.js';
import { localPathHere } from './view-paths.js';

export interface LocateOptions {
  root?: string;
  views?: ViewTable;
  documentUri?: string;
  profile?: Profile;
}

interface Entry {
  name: Buffer;
  isLink: boolean;
}

/** At most this many same-looking names followed at one level (a folder with "a", "A" and "a" in NFD). */
const MAX_BRANCHES = 8;

const fold = (s: string) => s.normalize('NFC').toLowerCase();
const validUtf8 = (b: Buffer): string | null => utf8Strict(b) ?? null;

/** The ways a name on disk may be written; each with what differs when it is the one that matched. */
function entryForms(name: Buffer): Array<{ text: string; how?: string }> {
  const utf8 = validUtf8(name);
  const forms: Array<{ text: string; how?: string }> = [];
  if (utf8 !== null) {
    forms.push({ text: utf8 });
    if (utf8.includes('%')) forms.push({ text: decodeSegment(utf8).text, how: `the name holds a literal '%' escape ('${utf8}'): the URL was not escaped` });
  } else {
    forms.push({ text: name.toString('latin1'), how: 'the name is in Latin-1 bytes, not UTF-8; rename the file to UTF-8' });
  }
  return forms;
}

/** The ways the wanted name may have been meant. */
function wantedForms(wanted: string): Array<{ text: string; how?: string }> {
  const forms: Array<{ text: string; how?: string }> = [{ text: wanted }];
  if (/%[0-9A-Fa-f]{2}/.test(wanted)) forms.push({ text: decodeSegment(wanted).text, how: 'the URL was escaped twice' });
  // UTF-8 bytes read as Latin-1 ("MÃ¼ller" for "Müller").
  if (/[\u0080-\u00ff]/.test(wanted) && !/[^\u0000-\u00ff]/.test(wanted)) {
    const again = validUtf8(Buffer.from(wanted, 'latin1'));
    if (again !== null && again !== wanted) forms.push({ text: again, how: 'the name was decoded as Latin-1 where it is UTF-8' });
  }
  return forms;
}

/** Whether `name` on disk is `wanted` written another way, and how. */
function sameName(name: Buffer, wanted: string): string | null {
  for (const e of entryForms(name)) {
    for (const w of wantedForms(wanted)) {
      if (e.text === w.text) return e.how ?? w.how ?? '';
      if (fold(e.text) === fold(w.text)) {
        const why = [e.how, w.how].filter(Boolean) as string[];
        if (e.text.normalize('NFC') !== w.text.normalize('NFC')) why.push('other case');
        if (e.text.toLowerCase() !== w.text.toLowerCase() && e.text.normalize('NFC').toLowerCase() === w.text.normalize('NFC').toLowerCase()) why.push(`${e.text === e.text.normalize('NFC') ? 'NFC' : 'NFD'} on disk, ${w.text === w.text.normalize('NFC') ? 'NFC' : 'NFD'} in the URL`);
        return why.join('; ');
      }
    }
  }
  return null;
}

export class Locator {
  private listings = new Map<string, Promise<Entry[] | null>>();
  /** Folders listed so far (for tests of the bound). */
  listed = 0;

  constructor(private readonly root: string | undefined) {}

  private list(folder: Buffer): Promise<Entry[] | null> {
    const key = folder.toString('latin1');
    let pending = this.listings.get(key);
    if (!pending) {
      this.listed++;
      pending = readdir(folder, { encoding: 'buffer', withFileTypes: true }).then(
        (dirents) => dirents.map((d) => ({ name: d.name as unknown as Buffer, isLink: d.isSymbolicLink() })),
        () => null,
      );
      this.listings.set(key, pending);
    }
    return pending;
  }

  /** The deepest folder of `target`'s path that exists, never above the root. */
  private async anchor(target: string): Promise<string> {
    let folder = path.dirname(target);
    for (;;) {
      if (this.root !== undefined && path.relative(this.root, folder).startsWith('..')) return this.root;
      try {
        if ((await lstat(folder)).isDirectory()) return folder;
      } catch {
        // go up
      }
      const parent = path.dirname(folder);
      if (parent === folder) return folder;
      folder = parent;
    }
  }

  /** The one file that `target` probably means, with what differs, or null when there is none or several. */
  async find(target: string): Promise<{ path: Buffer; how: string[]; changed: number } | null> {
    const anchor = await this.anchor(target);
    const parts = path.relative(anchor, target).split(path.sep).filter((p) => p !== '');
    if (parts.length === 0 || parts.includes('..')) return null;
    let level: Array<{ path: Buffer; how: string[]; firstChange: number }> = [{ path: Buffer.from(anchor), how: [], firstChange: -1 }];
    for (let k = 0; k < parts.length; k++) {
      const next: typeof level = [];
      for (const at of level) {
        const entries = await this.list(at.path);
        if (!entries) continue;
        for (const entry of entries) {
          if (entry.isLink && this.root !== undefined) continue; // never followed out of the root
          const how = sameName(entry.name, parts[k]!);
          if (how === null) continue;
          next.push({ path: Buffer.concat([at.path, Buffer.from(path.sep), entry.name]), how: how ? [...at.how, `${how} in '${parts[k]}'`] : at.how, firstChange: at.firstChange === -1 && how ? k : at.firstChange });
        }
      }
      if (next.length === 0 || next.length > MAX_BRANCHES) return null;
      level = next;
    }
    const files: typeof level = [];
    for (const c of level) {
      if (c.how.length === 0) continue; // the exact path: not missing after all
      try {
        if ((await stat(c.path)).isFile()) files.push(c);
      } catch {
        // not there
      }
    }
    if (files.length !== 1) return null;
    const only = files[0]!;
    return { path: only.path, how: only.how, changed: parts.length - only.firstChange };
  }

  async isFile(target: string): Promise<boolean> {
    try {
      return (await stat(target)).isFile();
    } catch {
      return false;
    }
  }
}

/**
 * The local paths a URL may be at, the way checkLocalFiles looks: through the view table (the machine's
 * prefixes in fallback order), else as a local file URL. Empty when it names no path here.
 */
export function localCandidates(url: string, options: LocateOptions): string[] {
  const mapped = options.views ? mapReference(url, options.views, localPathHere, options.documentUri) : null;
  if (mapped) return mapped.local.map((c) => c.path);
  if (!/^file:/i.test(url)) return [];
  const one = localPathHere(url);
  return one === null ? [] : [one];
}

function localPathOf(url: string, options: LocateOptions): string | null {
  return localCandidates(url, options)[0] ?? null;
}

/** The value with its last `count` segments replaced by the names found, escaped; null when the value has fewer. */
function renamed(value: string, found: Buffer, count: number): string | null {
  const names = found.toString('utf8').split(path.sep).slice(-count);
  if (names.some((n) => validUtf8(Buffer.from(n)) === null || n.includes('\ufffd'))) return null;
  const cut = value.search(/[?#]/);
  const body = cut === -1 ? value : value.slice(0, cut);
  const segments = body.split('/');
  const keep = segments.length - count;
  if (keep < 0 || segments.slice(keep).some((s) => s === '.' || s === '..' || s === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s))) return null;
  if (keep === 0 && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(body)) return null;
  return [...segments.slice(0, keep), ...names.map(escapeSegment)].join('/') + (cut === -1 ? '' : value.slice(cut));
}

/** The Directory-shaped mistakes: its last segment dropped (no trailing "/") or written again in the URL. */
function directoryAlternates(ref: TicketReference): Array<{ url: string; fix: string; how: string }> {
  if (ref.baseSource !== 'directory' || ref.base === null || ref.kind !== 'relative-path') return [];
  const out: Array<{ url: string; fix: string; how: string }> = [];
  const base = ref.base;
  const value = ref.value.trim();
  if (!base.endsWith('/')) {
    const last = base.slice(base.lastIndexOf('/') + 1);
    if (last !== '') out.push({ url: resolveReference(`${last}/${value}`, base), fix: `${last}/${value}`, how: `the Directory has no trailing '/', so its last segment '${decodeSegment(last).text}' was dropped` });
  } else {
    const last = base.slice(base.slice(0, -1).lastIndexOf('/') + 1, -1);
    if (last !== '' && value.startsWith(`${last}/`)) {
      const rest = value.slice(last.length + 1);
      out.push({ url: resolveReference(rest, base), fix: rest, how: `the URL repeats the Directory's last segment '${decodeSegment(last).text}'` });
    }
  }
  return out;
}

/**
 * Adds to every file-missing finding of the ticket where the file probably is, when one candidate is unique, and
 * the URL that opens it as a suggestion (Finding.suggestions), not a fix: `fix` never checks the file system.
 */
export async function explainMissing(ticket: TicketReport, options: LocateOptions): Promise<void> {
  const root = options.root !== undefined ? await realpath(path.resolve(options.root)).catch(() => undefined) : undefined;
  const locator = new Locator(root);
  const inside = (p: string) => root === undefined || !path.relative(root, p).startsWith('..');
  for (const ref of ticket.references) {
    const k = ref.findings.findIndex((f) => f.code === 'file-missing');
    if (k === -1 || ref.resolved === null) continue;
    const target = ref.mappedBy?.path ?? localPathOf(utf8Escapes(ref.resolved, ticket.encoding), options);
    if (target === null) continue;
    let found: { where: string; how: string; fix?: string } | undefined;
    for (const alt of directoryAlternates(ref)) {
      const local = localPathOf(alt.url, options);
      if (local !== null && inside(local) && (await locator.isFile(local))) {
        found = { where: local, how: alt.how, fix: alt.fix };
        break;
      }
    }
    if (!found) {
      const hit = await locator.find(target);
      if (hit) {
        const fix = renamed(ref.value, hit.path, hit.changed);
        found = { where: validUtf8(hit.path) ?? hit.path.toString('latin1'), how: hit.how.join('; '), ...(fix !== null ? { fix } : {}) };
      }
    }
    if (!found) continue;
    const suggestion = found.fix !== undefined ? { desc: redactText(`the file ${found.where} (${found.how})`), fix: stripPassword(found.fix) } : undefined;
    const restated = copyFinding(ref.findings[k]!, suggestion !== undefined ? { suggestions: [suggestion] } : {});
    restateFinding(restated, { path: target, found: found.where, how: found.how });
    ref.findings[k] = restated;
  }
}
