// The page's worker: validates, fixes and checks with the library, so the page stays responsive.
import { checkConfig } from '../../src/config/check.js';
import { checkUrl, fileUrlToPath, messageOf, parseAuthority, parseReference, PathConversionError, redactPassword, validateTicket, type ValidateOptions } from '../../src/index.js';
import { rewritePatch } from '../../src/report/patch.js';
import { mappedByText } from '../../src/report/text.js';
import { decodeTicket } from '../../src/ticket/decode.js';
import { fixTicketBytes } from '../../src/ticket/fix-bytes.js';
import { disagreement, readings } from '../../src/ticket/readings.js';
import { parseUrlAttribute, type VocabularyRow } from '../../src/ticket/vocabulary.js';
import { mapReference, mappedByUnchecked } from '../../src/views/map.js';
import validateConfigSchema from './config-validator.js';
import type { Components, FromWorker, PageFinding, PageMapping, PageOptions, PageReference, ToWorker } from './protocol.js';
import { rowIndex } from './rows.js';

const post = (message: FromWorker, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

/** The options of validate (with the config's urlAttributes and rules) or, without `withConfig`, of fix (which reads no config). */
function validateOptions(o: PageOptions, withConfig = false): ValidateOptions {
  const urlAttributes = withConfig ? (o.views?.urlAttributes ?? []).map(parseUrlAttribute).filter((r): r is VocabularyRow => r !== undefined) : [];
  const rules = withConfig ? o.views?.rules : undefined;
  return {
    ...(urlAttributes.length > 0 ? { urlAttributes } : {}),
    ...(rules !== undefined && Object.keys(rules).length > 0 ? { rules } : {}),
    ...(withConfig && (o.views?.vocabularies.length ?? 0) > 0 ? { vocabularies: o.views!.vocabularies } : {}),
    profile: o.profile,
    platform: o.platform,
    drivePreserving: o.drivePreserving,
    strictXml: o.strictXml,
    ...(o.jdfVersion.trim() !== '' ? { jdfVersion: o.jdfVersion.trim() } : {}),
    ...(o.base.trim() !== '' ? { base: o.base.trim() } : {}),
  };
}

/**
 * A file URL as a path on the machine whose view was picked, made absolute as validate makes it there
 * (path.resolve): Windows paths with the platform option windows, else POSIX. Null when it names no path there.
 */
function localPath(url: string, platform: 'posix' | 'windows'): string | null {
  let named: string;
  try {
    named = fileUrlToPath(url, { platform });
  } catch (error) {
    if (error instanceof PathConversionError) return null;
    throw error;
  }
  const windows = platform === 'windows';
  const root = windows ? /^(?:[A-Za-z]:\\|\\\\[^\\]+\\[^\\]+(?:\\|$))/.exec(named)?.[0] ?? '' : '/';
  const names: string[] = [];
  for (const name of named.slice(root.length).split(windows ? /[\\/]/ : '/')) {
    if (name === '..') names.pop();
    else if (name !== '' && name !== '.') names.push(name);
  }
  return (windows && root.startsWith('\\\\') && !root.endsWith('\\') ? root + '\\' : root) + names.join(windows ? '\\' : '/');
}

function validate(id: number, input: Uint8Array | string, options: PageOptions): void {
  post({ type: 'progress', id, phase: 'Checking every reference' });
  const report = validateTicket(input, validateOptions(options, true));
  post({ type: 'progress', id, phase: 'Preparing the source view' });
  const text = decodeTicket(input).text;
  const rows = rowIndex(text);
  const findings: PageFinding[] = report.findings.map((f) => ({ ...f, message: messageOf(f) }));
  const mapped: PageReference[] = [];
  const views = options.views;
  const platform = options.platform === 'windows' ? 'windows' : 'posix';
  // "./" (the ticket's folder) stands for the base, the page's only notion of where the ticket is.
  const folder = options.base.trim() !== '' ? options.base.trim() : undefined;
  for (const r of report.references) {
    let mapping: PageMapping | undefined;
    // As validate --config without --check-exists: every resolved reference but identifiers, nothing looked at.
    const found = views && r.resolved !== null && r.role !== 'identifier' ? mapReference(r.resolved, views.table, (u) => localPath(u, platform), folder) : null;
    if (found) {
      const mappedBy = mappedByUnchecked(found);
      mapping = { mappedBy, text: mappedByText(mappedBy) };
      mapped.push({ ...mapping, line: r.line, column: r.column, element: r.element, attribute: r.attribute, value: r.value, resolved: r.resolved! });
    }
    for (const f of r.findings) {
      findings.push({ ...f, message: messageOf(f), element: r.element, attribute: r.attribute, value: r.value, endLine: r.endLine, endColumn: r.endColumn, ...(mapping ? { mapping } : {}) });
    }
  }
  post(
    {
      type: 'validated', id, text, rows, encoding: report.encoding, references: report.references.length, findings, mapped,
      ...(report.jdfVersion !== undefined ? { jdfVersion: report.jdfVersion } : {}),
      ...(report.root !== undefined ? { root: report.root } : {}),
    },
    [rows.start.buffer, rows.end.buffer, rows.line.buffer, rows.firstRow.buffer],
  );
}

function fix(id: number, name: string, input: Uint8Array | string, options: PageOptions): void {
  post({ type: 'progress', id, phase: 'Planning the fixes' });
  const result = fixTicketBytes(input, validateOptions(options));
  const bytes = result.fixed?.slice().buffer;
  post(
    {
      type: 'fixed', id, diff: rewritePatch(name, result.text, result.plan.edits).text, skipped: result.plan.skipped, edits: result.plan.edits.length,
      ...(bytes !== undefined ? { bytes } : {}),
      ...(result.refused !== undefined ? { refused: result.refused } : {}),
    },
    bytes !== undefined ? [bytes] : [],
  );
}

function components(value: string): Components {
  // The password is masked before anything is shown.
  const ref = parseReference(redactPassword(value).trim());
  const out: Components = { path: ref.path };
  if (ref.scheme !== undefined) out.scheme = ref.scheme;
  if (ref.authority !== undefined) {
    out.authority = ref.authority;
    const a = parseAuthority(ref.authority);
    out.host = a.host;
    if (a.userinfo !== undefined) out.userinfo = a.userinfo;
    if (a.port !== undefined) out.port = a.port;
  }
  if (ref.query !== undefined) out.query = ref.query;
  if (ref.fragment !== undefined) out.fragment = ref.fragment;
  return out;
}

function checkOne(message: Extract<ToWorker, { type: 'check-url' }>): void {
  const { id, url, role, options } = message;
  const base = message.base.trim();
  const result = checkUrl(url, {
    profile: options.profile,
    platform: options.platform,
    drivePreserving: options.drivePreserving,
    role,
    ...(options.jdfVersion.trim() !== '' ? { jdfVersion: options.jdfVersion.trim() } : {}),
    ...(base !== '' ? { base } : {}),
  });
  const list = base !== '' ? readings(url, base, role === 'url') : [];
  post({
    type: 'url-checked', id, result, components: components(url),
    readings: list.map((r) => ({ consumer: r.consumer, href: r.href === null ? null : redactPassword(r.href) })),
    disagree: base !== '' && disagreement(url, base, role === 'url') !== null,
  });
}

/** A config's text checked as validate --config checks the file (a BOM dropped first); there is no host name here. */
function config(id: number, text: string): void {
  const parsed = checkConfig(text.replace(/^\uFEFF/, ''), validateConfigSchema, '');
  if (!('config' in parsed)) {
    post({ type: 'config-checked', id, problems: parsed.problems });
    return;
  }
  const urlAttributes = parsed.config.urlAttributes ?? [];
  post({ type: 'config-checked', id, views: { table: parsed.table, urlAttributes, rules: parsed.config.rules ?? {}, vocabularies: parsed.config.vocabularies ?? [] }, viewNames: Object.keys(parsed.table.views), storages: parsed.table.storages.length, urlAttributes: urlAttributes.length });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (m.type === 'config') config(m.id, m.text);
  else if (m.type === 'validate') validate(m.id, new Uint8Array(m.bytes), m.options);
  else if (m.type === 'validate-text') validate(m.id, m.text, m.options);
  else if (m.type === 'fix') fix(m.id, m.name, typeof m.input === 'string' ? m.input : new Uint8Array(m.input), m.options);
  else checkOne(m);
};
