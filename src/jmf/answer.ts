// The answer to a JMF or XJMF message: one Response per Query or Command (JDF 1.x 4.2.4; XJMF ResponseXxx), its
// ReturnCode, one Notification per finding, and what it reports (the queue entry, the queue, the messages known).
// Browser-safe: the Node edge (src/node/jmf) decides what goes in it.
import { redactPassword } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import type { JmfKind, JmfMessage } from './read.js';

/** Our own attributes on Responses and Notifications (JDF 1.x 3.x: elements may carry attributes of other namespaces). */
export const JFS_NAMESPACE = 'https://jdf-filespec.github.io/ns/jmf';
const NAMESPACE: Record<JmfKind, string> = { jmf: 'http://www.CIP4.org/JDFSchema_1_1', xjmf: 'http://www.CIP4.org/JDFSchema_2_0' };

/** One finding as a Notification: Class from its severity (JDF 1.x Notification/@Class), where it is, its masked message. */
export interface NoteOf {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  line: number;
  column: number;
  /** The element path (and attribute) of the reference, when the finding is about one. */
  path?: string;
  /** The package part the finding is in. */
  part?: string;
}

/** One queue entry as serve keeps it (JDF 1.x 5.6.x QueueEntry: @QueueEntryID, @Status). */
export interface EntryOf {
  queueEntryId: string;
  /** JDF 1.x QueueEntry/@Status: Waiting, Completed or Aborted here. */
  status: 'Waiting' | 'Completed' | 'Aborted';
  returnCode: number;
  submitted?: string;
  /** The QueueEntryID the downstream device gave the forwarded job: its ReturnQueueEntry (sent to the sender's ReturnJMF) names that one. */
  forwardedAs?: string;
}

export interface ResponseOf {
  request: JmfMessage;
  returnCode: number;
  notes?: readonly NoteOf[];
  /** Free text, as a Comment of an Information Notification (a reason that is not a finding). */
  comment?: string;
  /** The link to the full report. */
  report?: string;
  entry?: EntryOf;
  /** QueueStatus: the whole queue. */
  queue?: readonly EntryOf[];
  /** KnownMessages: the families and types understood (JDF 1.x 5.5.x MessageService). */
  known?: ReadonlyArray<{ type: string; query?: boolean; command?: boolean }>;
}

/** A message of the whole answer's own, not one of the request's (an unreadable request: no refID to give). */
export function errorRequest(type = 'Unknown'): JmfMessage {
  return { family: 'Command', type };
}

const CLASS = { error: 'Error', warning: 'Warning', info: 'Information' } as const;

/** The answer to `request` as XML text (UTF-8). */
export function buildAnswer(kind: JmfKind, version: string | undefined, responses: readonly ResponseOf[], now = new Date()): string {
  const time = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const ns = `xmlns="${NAMESPACE[kind]}" xmlns:jfs="${JFS_NAMESPACE}"`;
  if (kind === 'jmf') {
    lines.push(`<JMF ${ns} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SenderID="jdf-filespec" TimeStamp="${time}" Version="${esc(version ?? '1.3')}">`);
    responses.forEach((r, i) => lines.push(...jmfResponse(r, i, time)));
    lines.push('</JMF>');
  } else {
    lines.push(`<XJMF ${ns} Version="${esc(version ?? '2.0')}">`, `  <Header DeviceID="jdf-filespec" ID="H${time.replace(/\D/g, '')}" Time="${time}"/>`);
    responses.forEach((r, i) => lines.push(...xjmfResponse(r, i, time)));
    lines.push('</XJMF>');
  }
  return lines.join('\n') + '\n';
}

/** JDF 1.x 4.2.4: Response with @refID (the request's @ID), @Type and @ReturnCode. */
function jmfResponse(r: ResponseOf, i: number, time: string): string[] {
  const ref = r.request.id !== undefined ? ` refID="${esc(r.request.id)}"` : '';
  const report = r.report !== undefined ? ` jfs:Report="${esc(r.report)}"` : '';
  const head = `  <Response ID="R${i + 1}_${time.replace(/\D/g, '')}"${ref} Type="${esc(r.request.type)}" ReturnCode="${r.returnCode}" xsi:type="Response${esc(r.request.type)}"${report}>`;
  return [head, ...body(r, '    '), '  </Response>'];
}

/** XJDF 2.x (XJMF): ResponseXxx with @ReturnCode, its own Header with @refID. */
function xjmfResponse(r: ResponseOf, i: number, time: string): string[] {
  const name = `Response${r.request.type}`;
  const report = r.report !== undefined ? ` jfs:Report="${esc(r.report)}"` : '';
  const ref = r.request.id !== undefined ? ` refID="${esc(r.request.id)}"` : '';
  return [`  <${name} ReturnCode="${r.returnCode}"${report}>`, `    <Header DeviceID="jdf-filespec" ID="R${i + 1}" Time="${time}"${ref}/>`, ...body(r, '    '), `  </${name}>`];
}

function body(r: ResponseOf, indent: string): string[] {
  const out: string[] = [];
  if (r.comment !== undefined) out.push(`${indent}<Notification Class="${r.returnCode === 0 ? 'Information' : 'Error'}"><Comment>${esc(mask(r.comment))}</Comment></Notification>`);
  for (const n of r.notes ?? []) out.push(indent + notification(n));
  if (r.entry) out.push(indent + queueEntry(r.entry));
  if (r.queue) {
    out.push(`${indent}<Queue Status="Waiting" DeviceID="jdf-filespec">`);
    for (const e of r.queue) out.push(`${indent}  ${queueEntry(e)}`);
    out.push(`${indent}</Queue>`);
  }
  for (const k of r.known ?? []) out.push(`${indent}<MessageService Type="${esc(k.type)}"${k.query ? ' Query="true"' : ''}${k.command ? ' Command="true"' : ''}/>`);
  return out;
}

/** JDF 1.x Notification: @Class, a Comment in words; ours: the finding's code, element path, line and column. */
function notification(n: NoteOf): string {
  const where = `${n.part !== undefined ? `${n.part}, ` : ''}line ${n.line}, column ${n.column}${n.path !== undefined ? `, ${n.path}` : ''}`;
  const attrs = [`Class="${CLASS[n.severity]}"`, `jfs:Code="${esc(n.code)}"`, `jfs:Line="${n.line}"`, `jfs:Column="${n.column}"`];
  if (n.path !== undefined) attrs.push(`jfs:Path="${esc(mask(n.path))}"`);
  if (n.part !== undefined) attrs.push(`jfs:Part="${esc(mask(n.part))}"`);
  return `<Notification ${attrs.join(' ')}><Comment>${esc(`${n.code}: ${mask(n.message)} (${mask(where)})`)}</Comment></Notification>`;
}

function queueEntry(e: EntryOf): string {
  const submitted = e.submitted !== undefined ? ` SubmissionTime="${esc(e.submitted)}"` : '';
  const forwarded = e.forwardedAs !== undefined ? ` jfs:ForwardedQueueEntryID="${esc(e.forwardedAs)}"` : '';
  return `<QueueEntry QueueEntryID="${esc(e.queueEntryId)}" Status="${e.status}"${submitted} jfs:ReturnCode="${e.returnCode}"${forwarded}/>`;
}

/** Nothing we write shows a password: URLs' (redact.ts) and FileSpec/@Password, NetworkHeader values (secrets.ts). */
function mask(text: string): string {
  return redactSecrets(redactPassword(text));
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\uFFFD');
}
