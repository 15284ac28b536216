// The page's worker: validates, fixes and checks with the library, so the page stays responsive.
import { checkUrl, parseAuthority, parseReference, redactPassword, validateTicket, type ValidateOptions } from '../../src/index.js';
import { unifiedDiff } from '../../src/report/diff.js';
import { decodeTicket } from '../../src/ticket/decode.js';
import { fixTicketBytes } from '../../src/ticket/fix-bytes.js';
import { disagreement, readings } from '../../src/ticket/readings.js';
import type { Components, FromWorker, PageFinding, PageOptions, ToWorker } from './protocol.js';
import { rowIndex } from './rows.js';

const post = (message: FromWorker, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

function validateOptions(o: PageOptions): ValidateOptions {
  return {
    profile: o.profile,
    platform: o.platform,
    drivePreserving: o.drivePreserving,
    strictXml: o.strictXml,
    ...(o.jdfVersion.trim() !== '' ? { jdfVersion: o.jdfVersion.trim() } : {}),
    ...(o.base.trim() !== '' ? { base: o.base.trim() } : {}),
  };
}

function validate(id: number, input: Uint8Array | string, options: PageOptions): void {
  post({ type: 'progress', id, phase: 'Checking every reference' });
  const report = validateTicket(input, validateOptions(options));
  post({ type: 'progress', id, phase: 'Preparing the source view' });
  const text = decodeTicket(input).text;
  const rows = rowIndex(text);
  const findings: PageFinding[] = report.findings.map((f) => ({ ...f }));
  for (const r of report.references) {
    for (const f of r.findings) {
      findings.push({ ...f, element: r.element, attribute: r.attribute, value: r.value, endLine: r.endLine, endColumn: r.endColumn });
    }
  }
  post(
    {
      type: 'validated', id, text, rows, encoding: report.encoding, references: report.references.length, findings,
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
      type: 'fixed', id, diff: unifiedDiff(name, result.text, result.plan.edits), skipped: result.plan.skipped, edits: result.plan.edits.length,
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

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (m.type === 'validate') validate(m.id, new Uint8Array(m.bytes), m.options);
  else if (m.type === 'validate-text') validate(m.id, m.text, m.options);
  else if (m.type === 'fix') fix(m.id, m.name, typeof m.input === 'string' ? m.input : new Uint8Array(m.input), m.options);
  else checkOne(m);
};
