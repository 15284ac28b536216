// Reading a JMF 1.x or XJMF message: its family, version and the messages it carries, with what serve needs of
// each (the submission's URL and where to return the job; the queue entry asked about). Browser-safe.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeTicket } from '../ticket/decode.js';

export type JmfKind = 'jmf' | 'xjmf';
/** JDF 1.x 4.2 (Message families): the kinds of message a JMF carries. */
export type MessageFamily = 'Query' | 'Command' | 'Signal' | 'Response' | 'Acknowledge' | 'Registration';
const FAMILIES: readonly MessageFamily[] = ['Query', 'Command', 'Signal', 'Response', 'Acknowledge', 'Registration'];

/** What a SubmitQueueEntry or ResubmitQueueEntry names. */
export interface Submission {
  /** QueueSubmissionParams/@URL, ResubmissionParams/@URL (JDF 1.x 5.6.x): the ticket, cid: in a MIME package. */
  url?: string;
  /** @ReturnJMF: where the ReturnQueueEntry signal goes (JDF 1.x QueueSubmissionParams). */
  returnJmf?: string;
  /** @ReturnURL: where the finished JDF goes (JDF 1.x QueueSubmissionParams). */
  returnUrl?: string;
  /** ResubmissionParams/@QueueEntryID: the entry a resubmission replaces. */
  queueEntryId?: string;
}

export interface JmfMessage {
  family: MessageFamily;
  /** @Type in JMF 1.x; the element name after the family in XJMF (CommandSubmitQueueEntry: SubmitQueueEntry). */
  type: string;
  /** @ID in JMF 1.x, Header/@ID in XJMF: what the answer's refID names. */
  id?: string;
  submission?: Submission;
  /** QueueEntryDef/@QueueEntryID (or a QueueFilter's): the entry a queue query asks about. */
  queueEntryId?: string;
  /** A Response's @ReturnCode (JDF 1.x 4.2.4). */
  returnCode?: number;
  /** A Response's Notification/Comment texts. */
  comments?: string[];
}

export interface JmfDocument {
  kind: JmfKind;
  /** JMF/@Version, XJMF/@Version. */
  version?: string;
  /** JMF/@SenderID, XJMF Header/@DeviceID. */
  senderId?: string;
  messages: JmfMessage[];
}

export interface JmfProblem {
  message: string;
  line: number;
  column: number;
}

export type JmfRead = { document: JmfDocument } | { problem: JmfProblem };

type Node = Record<string, unknown>;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (_name, _path, _leaf, isAttribute) => !isAttribute, processEntities: true, parseAttributeValue: false, parseTagValue: false, trimValues: true });

/** Reads a JMF or XJMF message from its bytes (its charset from the BOM or the XML declaration) or its text. */
export function readJmf(input: Uint8Array | string): JmfRead {
  const text = decodeTicket(input).text;
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { problem: { message: `not well-formed XML: ${valid.err.msg}`, line: valid.err.line, column: valid.err.col } };
  const tree = parser.parse(text) as Node;
  const rootName = Object.keys(tree).find((k) => k === 'JMF' || k === 'XJMF');
  if (rootName === undefined) {
    const found = Object.keys(tree).find((k) => !k.startsWith('?') && !k.startsWith('#'));
    return { problem: { message: `the root element is ${found ?? 'missing'}, not JMF or XJMF`, line: 1, column: 1 } };
  }
  const root = first(tree[rootName])!;
  return rootName === 'JMF' ? { document: readJmf1(root) } : { document: readXjmf(root) };
}

function first(value: unknown): Node | undefined {
  return Array.isArray(value) ? (value[0] as Node | undefined) : undefined;
}

function attr(node: Node | undefined, name: string): string | undefined {
  const v = node?.[`@${name}`];
  return typeof v === 'string' ? v : undefined;
}

function elements(node: Node, name: string): Node[] {
  const v = node[name];
  return Array.isArray(v) ? (v as Node[]).filter((x) => typeof x === 'object' && x !== null) : [];
}

/** The text of each `name` child (a leaf is its string; an element with attributes keeps it in #text). */
function texts(node: Node, name: string): string[] {
  const v = node[name];
  if (!Array.isArray(v)) return [];
  return v.map((x: unknown) => (typeof x === 'string' ? x : typeof x === 'object' && x !== null && typeof (x as Node)['#text'] === 'string' ? ((x as Node)['#text'] as string) : ''));
}

/** JDF 1.x 4.1: JMF with Query, Command, Signal, Response, Acknowledge and Registration children, each with @Type and @ID. */
function readJmf1(root: Node): JmfDocument {
  const messages: JmfMessage[] = [];
  for (const family of FAMILIES) {
    for (const node of elements(root, family)) messages.push(message(family, attr(node, 'Type') ?? typeFromXsi(attr(node, 'type'), family) ?? '', attr(node, 'ID'), node));
  }
  return { kind: 'jmf', ...optional('version', attr(root, 'Version')), ...optional('senderId', attr(root, 'SenderID')), messages };
}

/** XJDF 2.x 3.x (XJMF): messages are elements named by family and type (CommandSubmitQueueEntry), each with its own Header. */
function readXjmf(root: Node): JmfDocument {
  const messages: JmfMessage[] = [];
  for (const [name, value] of Object.entries(root)) {
    if (name.startsWith('@') || !Array.isArray(value)) continue;
    const family = FAMILIES.find((f) => name.startsWith(f) && name.length > f.length);
    if (!family) continue;
    for (const node of value as Node[]) messages.push(message(family, name.slice(family.length), attr(first(node.Header), 'ID'), node));
  }
  return { kind: 'xjmf', ...optional('version', attr(root, 'Version')), ...optional('senderId', attr(first(root.Header), 'DeviceID')), messages };
}

/** xsi:type="CommandSubmitQueueEntry" names the type when @Type is missing. */
function typeFromXsi(xsi: string | undefined, family: string): string | undefined {
  return xsi !== undefined && xsi.startsWith(family) ? xsi.slice(family.length) : undefined;
}

function message(family: MessageFamily, type: string, id: string | undefined, node: Node): JmfMessage {
  const out: JmfMessage = { family, type, ...optional('id', id) };
  // JDF 1.x 5.6.x: QueueSubmissionParams for SubmitQueueEntry, ResubmissionParams for ResubmitQueueEntry.
  const params = first(node.QueueSubmissionParams) ?? first(node.ResubmissionParams) ?? first(node.ResubmitParams);
  if (params) {
    out.submission = { ...optional('url', attr(params, 'URL')), ...optional('returnJmf', attr(params, 'ReturnJMF')), ...optional('returnUrl', attr(params, 'ReturnURL')), ...optional('queueEntryId', attr(params, 'QueueEntryID')) };
  }
  // QueueEntryDef (JDF 1.x 5.6.x) names the entry a query is about; a Response's QueueEntry, the one it made.
  const def = first(node.QueueEntryDef) ?? first(first(node.QueueFilter)?.QueueEntryDef) ?? first(node.QueueEntryStatusParams) ?? first(node.QueueEntry);
  const entry = attr(def, 'QueueEntryID');
  if (entry !== undefined) out.queueEntryId = entry;
  const code = attr(node, 'ReturnCode');
  if (code !== undefined && /^\d+$/.test(code)) out.returnCode = Number(code);
  const comments = elements(node, 'Notification').flatMap((n) => texts(n, 'Comment')).filter((c) => c !== '');
  if (comments.length > 0) out.comments = comments;
  return out;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
