// Findings about a whole ticket: its bytes, its XML, its references between resources and its bases.
// validateTicket runs each rule's checks at the step of its walk that has what the check looks at (TicketChecks);
// the rule's whole logic is here, the walker only says where and in what order.
// The reader's verdicts have no check: file-too-large, the encoding rules, xml-empty, xml-malformed and
// xml-too-deep say why a ticket could not be read at all, and the reading stops there (src/ticket/read.ts).
// The XML problems of a value or of the text (undefined-entity, bare-ampersand, lt-in-attribute,
// invalid-char-ref, invalid-xml-char in a value, and markup.ts's duplicate-attribute, xml-declaration-misplaced,
// comment-double-hyphen, tag-malformed and cdata-end-in-text) are found by the lexer as it reads (src/ticket/xml),
// in one pass over the text.
// checkUrl loads this catalog, and must load neither the ticket layer, its vocabulary table nor fast-xml-parser
// (test/startup.test.ts): what a check needs of them comes in its arguments (TicketLayer), never by an import, and what it sees of
// them is declared in ticket-view.ts, below both.
import { redactPassword } from '../fileurl/redact.js';
import { parseReference } from '../uri/parse.js';
import { examples, sev } from './helpers.js';
import { READINGS_GO_TO } from './causes.js';
import type { RuleCode } from './codes.js';
import type { BaseSource, DoctypeView, ReportedReference, TicketLayer, TicketView } from './ticket-view.js';
import type { CatalogRule, Finding, ReferenceKind, Role, RuleMeta } from './types.js';
import { forbiddenAt } from './forbidden-char.js';

/** What a ticket rule found. */
export interface TicketRuleReport {
  /** Where: in checkReference and checkIdentifier the index in the value, elsewhere the offset in the ticket's text. */
  offset: number;
  args?: Record<string, string | number>;
  /** Codes of checkUrl's findings on the same reference that this one replaces (it says the same, better). */
  supersedes?: readonly string[];
  /**
   * The code of checkUrl's finding on the same reference that is the cause of what this one found (causes.ts): no
   * finding of this rule is made, and `args` go into that finding's.
   */
  into?: RuleCode;
}

type ReportTicket = (report: TicketRuleReport) => void;

/** A URL or Directory the walk reached, with what checkUrl made of it. */
export interface WalkedReference {
  role: Role;
  /** The value after XML decoding, as checkUrl saw it. */
  value: string;
  kind: ReferenceKind;
  base: { uri: string | null; source: BaseSource };
  /** A FileSpec/@URL inside a container (appendix 4.6). */
  inContainer: boolean;
  /** checkUrl's findings on the value. */
  findings: readonly Finding[];
}

/** An rRef the walk met. */
export interface RRefLink {
  /** The ID it names. */
  id: string;
  /** Offset of its value in the text. */
  offset: number;
  /** The resource with that ID; -1 (the element tree's NONE) when there is none, a number either way. */
  target: number;
  /** An element with that ID that is not a resource (a node, a message, an audit), if any. */
  notResource: number | undefined;
  /** Whether the resource with that ID is already on the way here, through rRefs (a cycle). */
  onChain: boolean;
  /** The keys of the ref's Part as written, when they select no partition of the target. */
  unmatchedPart?: string;
}

/** The steps of validateTicket at which a ticket rule can look, in the order they run. */
export interface TicketChecks {
  /** The DOCTYPE, once read (before the elements: a ticket that is not well-formed gets these too). */
  checkDoctype?(doctype: DoctypeView, layer: TicketLayer, report: ReportTicket): void;
  /** The document, once its element tree is built. */
  checkDocument?(doc: TicketView, report: ReportTicket): void;
  /** Each rRef the walk meets, before it is followed. */
  checkLink?(link: RRefLink, doc: TicketView, report: ReportTicket): void;
  /** Each identifier (DevNS, PDFXRegistryName): its value is checked here, never by checkUrl. */
  checkIdentifier?(value: string, report: ReportTicket): void;
  /** Each URL and Directory, after checkUrl's findings and the XML problems of its value. */
  checkReference?(ref: WalkedReference, doc: TicketView, report: ReportTicket): void;
  /** The document once walked, with every reference reported. */
  checkWalked?(doc: TicketView, references: readonly ReportedReference[], report: ReportTicket): void;
}

/** A ticket rule: a catalog entry and its TicketChecks (checkUrl runs none of them; it has no check of a value). */
export type TicketRule = CatalogRule & TicketChecks & { meta: RuleMeta & { scope: 'ticket' } };

export function ticketRule(
  meta: Omit<RuleMeta, 'scope' | 'examples'> & { flagged: string[]; clean: string[] },
  message: CatalogRule['message'],
  checks: TicketChecks = {},
): TicketRule {
  const { flagged, clean, ...rest } = meta;
  return {
    meta: { ...rest, scope: 'ticket', examples: examples(flagged.map((value) => ({ value })), clean.map((value) => ({ value }))) },
    message,
    ...checks,
  };
}

// RFC 3986 2: characters that never appear in a URI (IRIs, RFC 3987, allow the non-ASCII ones).
const NOT_IN_URI = /[\u0000-\u0020"<>\\^`{|}\u007f]/;
/** Elements whose ID names a process node (an rRef to one is a mistake the message names). */
const NODE_ROOTS: ReadonlySet<string> = new Set(['JDF', 'XJDF']);

const OK = '<JDF Version="1.4"><ResourcePool><RunList ID="RL1" Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';
const fs = (url: string) => `<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool></JDF>`;

export const xmlEmpty = ticketRule({
  code: 'xml-empty', title: 'Empty file', spec: 'XML 1.0 2.1',
  description: 'The file has no XML at all (it is empty or only white space), so it names no files.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['', '  \n'], clean: [OK],
}, () => 'The file is empty; a JDF ticket needs a root element.');

export const xmlMalformed = ticketRule({
  code: 'xml-malformed', title: 'Malformed XML', spec: 'XML 1.0 2.1',
  description: 'The XML is not well-formed (for example an unclosed or mismatched tag, or binary data), so no reference can be trusted; nothing else in the file is checked. The `reason` arg names the cause (such as `cut-off`, placed where the text ends, naming the element still open and where it opened; `end-tag-mismatch`; `attribute-repeated`).',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['<JDF><ResourcePool></JDF>', '\u0000\u0001binary'], clean: [OK],
}, (a) => `The XML is not well-formed: ${a.detail} Correct the markup; the file's references were not read.`);

export const xmlTooDeep = ticketRule({
  code: 'xml-too-deep', title: 'Elements nested too deeply', spec: 'jdf-filespec limit',
  description: 'Elements nest deeper than 500 levels. No real ticket does (JDF nodes and partitions rarely pass a few dozen); such a file is reported instead of parsed, so it cannot exhaust the stack.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['<JDF>' + '<a>'.repeat(600) + '</a>'.repeat(600) + '</JDF>'], clean: [OK],
}, (a) => `The elements nest deeper than ${a.limit} levels; the file was not read. Flatten the document.`);

export const invalidXmlChar = ticketRule({
  code: 'invalid-xml-char', title: 'Character XML does not allow', spec: 'XML 1.0 2.2',
  description: 'A value holds a raw character that XML 1.0 forbids (NUL and most other C0 controls, U+FFFE, U+FFFF, an unpaired surrogate): the file is not well-formed. In a URL, escape it (%00-%1F).',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [fs('a\u0001b.pdf')], clean: [fs('a%01b.pdf')],
}, (a) => `The value holds ${a.code}, which XML does not allow; remove it, or escape it in the URL as %XX.`, {
  // In a value the lexer reports it; elsewhere (text, comments, markup) it is reported once, where it first stands.
  checkWalked(doc, references, report) {
    const forbidden = forbiddenAt(doc.text);
    if (forbidden === -1) return;
    const at = doc.lines.position(forbidden);
    const seen = references.some((r) => r.findings.some((f) => f.code === 'invalid-xml-char' && f.line === at.line && f.column === at.column));
    if (!seen) report({ offset: forbidden, args: { code: `U+${doc.text.charCodeAt(forbidden).toString(16).toUpperCase().padStart(4, '0')}` } });
  },
});

export const xmlSeveralRoots = ticketRule({
  code: 'xml-several-roots', title: 'Several root elements', spec: 'XML 1.0 2.1',
  description: 'A well-formed document has exactly one root element; a second one is usually a concatenation accident. The references of every root are still read.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['<JDF/><JDF/>'], clean: [OK],
}, (a) => `A second root element <${a.name}> follows the first; a ticket has exactly one root element.`, {
  checkDocument({ tree }, report) {
    for (const extra of tree.roots.slice(1)) report({ offset: tree.start(extra), args: { name: tree.qname(extra) } });
  },
});

export const invalidEncodingBytes = ticketRule({
  code: 'invalid-encoding-bytes', title: 'Bytes not valid in the declared encoding', spec: 'XML 1.0 4.3.3',
  description: 'The bytes do not decode in the encoding the file declares (or UTF-8, when it declares none). Save the file in its declared encoding, or declare the one it is in.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [], clean: [OK],
}, (a) => `Byte ${a.byte} is not valid ${a.charset}; save the file as ${a.charset} or declare its real encoding in the XML declaration.`);

export const unsupportedEncoding = ticketRule({
  code: 'unsupported-encoding', title: 'Encoding we cannot read', spec: 'XML 1.0 4.3.3',
  description: 'The XML declaration names an encoding other than UTF-8, UTF-16, ISO-8859-1, windows-1252 or US-ASCII.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [], clean: [OK],
}, (a) => `The declared encoding '${a.label}' is not supported; save the ticket as UTF-8.`);

export const encodingMismatch = ticketRule({
  code: 'encoding-mismatch', title: 'Declaration disagrees with the byte order mark', spec: 'XML 1.0 4.3.3, appendix F',
  description: 'The byte order mark (or the UTF-16 byte pattern) and the declared encoding disagree; the bytes win, but one of them is wrong.',
  severity: sev('warning', 'warning', 'warning'), fixable: false, flagged: [], clean: [OK],
}, (a) => `The file is ${a.actual} but declares '${a.label}'; correct the declaration.`);

export const doctypeEntities = ticketRule({
  code: 'doctype-entities', title: 'DOCTYPE with entity declarations', spec: 'XML 1.0 4.2',
  description: 'Entity declarations are never expanded and external entities never fetched (that is how billion-laughs and XXE attacks work); references to them stay unresolved. JDF tickets do not need a DOCTYPE.',
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: ['<!DOCTYPE JDF [<!ENTITY x "y">]><JDF/>'], clean: [OK],
}, (a) => `The DOCTYPE declares ${a.what}; they are not expanded${a.external ? ' and nothing external is fetched' : ''}. Remove the DOCTYPE.`, {
  checkDoctype(doctype, _layer, report) {
    if (doctype.entities === 0 && !doctype.external) return;
    const what = doctype.entities > 0 ? `${doctype.entities} entit${doctype.entities === 1 ? 'y' : 'ies'}` : 'an external subset';
    report({ offset: doctype.start, args: { what, external: doctype.external ? 1 : '' } });
  },
});

export const undefinedEntity = ticketRule({
  code: 'undefined-entity', title: 'Unknown entity in a value', spec: 'XML 1.0 4.1',
  description: 'A value uses an entity that is not one of the five predefined ones (&lt; &gt; &amp; &apos; &quot;); its meaning is unknown, so the reference is checked with the entity left as written.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [fs('&amp;nbsp;a.pdf').replace('&amp;', '&')], clean: [fs('a&amp;b.pdf')],
}, (a) => `The entity &${a.name}; is not defined; write the character itself or a character reference.`);

export const bareAmpersand = ticketRule({
  code: 'bare-ampersand', title: "Bare '&' in a value", spec: 'XML 1.0 2.4',
  description: "A literal '&' in an attribute value must be written &amp;.",
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [fs('a&b.pdf')], clean: [fs('a&amp;b.pdf')],
}, () => "A bare '&' is not allowed in XML; write it as &amp;.");

export const ltInAttribute = ticketRule({
  code: 'lt-in-attribute', title: "'<' in a value", spec: 'XML 1.0 3.1',
  description: "A literal '<' in an attribute value is not well-formed XML; write &lt; (and in a URL, %3C).",
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [fs('a<b.pdf')], clean: [fs('a%3Cb.pdf')],
}, () => "A literal '<' is not allowed in an attribute value; write &lt; (in a URL, %3C).");

export const invalidCharRef = ticketRule({
  code: 'invalid-char-ref', title: 'Character reference to a non-character', spec: 'XML 1.0 4.1, 2.2',
  description: 'A character reference names a code point XML does not allow (such as &#0;).',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [fs('a&#0;.pdf')], clean: [fs('a&#x20;.pdf').replace('&#x20;', '%20')],
}, (a) => `${a.ref} is not an XML character; remove it.`);

export const fileTooLarge = ticketRule({
  code: 'file-too-large', title: 'File larger than the limit', spec: 'jdf-filespec --max-bytes',
  description: 'Files larger than the --max-bytes limit are not read, so a huge file cannot exhaust memory.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: [], clean: [OK],
}, (a) => `The file is ${a.size} bytes, over the limit of ${a.limit}; raise --max-bytes to check it.`);

export const notATicket = ticketRule({
  code: 'not-a-ticket', title: 'Root is not JDF, XJDF or JMF', spec: 'JDF 1.x 3.1; XJDF 2.0',
  description: 'The root element is not JDF, XJDF, JMF or XJMF; the file is read for file references all the same.',
  severity: sev('info', 'info', 'info'), fixable: false, flagged: ['<Other><FileSpec URL="a.pdf"/></Other>'], clean: [OK],
}, (a) => `The root element <${a.name}> is not JDF, XJDF or JMF; its FileSpec references are checked all the same.`, {
  checkDocument({ tree, root, layer }, report) {
    if (!layer.isTicketRoot(tree.local(root))) report({ offset: tree.start(root), args: { name: tree.qname(root) } });
  },
});

export const danglingRRef = ticketRule({
  code: 'dangling-rref', title: 'rRef to a missing resource', spec: 'JDF 1.x 3.9.2 (rRef)',
  description: 'An rRef names an ID that no resource in the ticket has, so the files of that resource cannot be found. Any element with an ID can be named (resources in a ResourcePool, in a JMF ResourceInfo or ResourceCmdParams, nested in other resources, device-capability Test and Macro pools), except process nodes, messages and audits: an rRef to a JDF node is reported too, and says so.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: [
    '<JDF><ResourcePool><RunList ID="RL1"><LayoutElementRef rRef="LE9"/></RunList></ResourcePool></JDF>',
    '<JDF ID="n1"><ResourcePool><RunList ID="RL1"><LayoutElementRef rRef="n1"/></RunList></ResourcePool></JDF>',
  ],
  clean: [
    '<JDF><ResourcePool><LayoutElement ID="LE1"><FileSpec URL="a.pdf"/></LayoutElement><RunList ID="RL1" Directory="file:///c:/j/"><LayoutElementRef rRef="LE1"/></RunList></ResourcePool></JDF>',
    '<JMF><Command ID="c1" Type="Resource"><ResourceCmdParams><Media ID="M1"/><ExposedMedia ID="EM1"><MediaRef rRef="M1"/></ExposedMedia></ResourceCmdParams></Command></JMF>',
  ],
}, (a) => (a.what
  ? `rRef="${a.id}" names ${a.what}, not a resource; point it at the resource's ID.`
  : `rRef="${a.id}" names no resource in this ticket; add the resource or correct the ID.`), {
  checkLink({ id, offset, target, notResource }, { tree }, report) {
    if (target !== -1) return;
    const what = notResource === undefined ? '' : `the <${tree.qname(notResource)}> ${NODE_ROOTS.has(tree.local(notResource)) ? 'node' : 'element'}`;
    report({ offset, args: { id, what } });
  },
});

export const rRefCycle = ticketRule({
  code: 'rref-cycle', title: 'rRef cycle', spec: 'JDF 1.x 3.9.2 (rRef)',
  description: 'Following rRefs leads back to a resource already on the way; the cycle is cut there. A resource that only the rRefs of its own cycle name (one that names itself, two that name each other) is read where it stands, so its files are reported once.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: [
    '<JDF><ResourcePool><RunList ID="A"><RunListRef rRef="B"/></RunList><RunList ID="B"><RunListRef rRef="A"/></RunList><RunList ID="C"><RunListRef rRef="A"/></RunList></ResourcePool></JDF>',
    '<JDF><ResourcePool><RunList ID="A"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement><RunListRef rRef="A"/></RunList></ResourcePool></JDF>',
  ],
  clean: [OK],
}, (a) => `rRef="${a.id}" leads back to a resource that refers to it; break the cycle.`, {
  checkLink({ id, offset, target, onChain }, _doc, report) {
    if (target !== -1 && onChain) report({ offset, args: { id } });
  },
});

export const partNoMatch = ticketRule({
  code: 'part-no-match', title: 'Part selects no partition', spec: 'JDF 1.x 3.10.5 (Part); JDF appendix 4.6',
  description: "A FileSpecRef of a Container has a Part whose keys no partition of the FileSpec it names matches (only the keys in the resource's PartIDKeys count, when it gives them). No container is selected: the files inside it are not resolved into an arbitrary partition's container.",
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec ID="Z" PartIDKeys="PartVersion"><FileSpec PartVersion="English" URL="file:///c:/en.zip"/></FileSpec><FileSpec URL="a.pdf"><Container><FileSpecRef rRef="Z"><Part PartVersion="German"/></FileSpecRef></Container></FileSpec></ResourcePool></JDF>'],
  clean: ['<JDF><ResourcePool><FileSpec ID="Z" PartIDKeys="PartVersion"><FileSpec PartVersion="German" URL="file:///c:/de.zip"/></FileSpec><FileSpec URL="a.pdf"><Container><FileSpecRef rRef="Z"><Part PartVersion="German"/></FileSpecRef></Container></FileSpec></ResourcePool></JDF>'],
}, (a) => `No partition of the resource rRef="${a.id}" names matches its Part ${a.part}; correct the Part or add the partition.`, {
  checkLink({ id, offset, unmatchedPart }, _doc, report) {
    if (unmatchedPart !== undefined) report({ offset, args: { id, part: unmatchedPart } });
  },
});

export const containerUrlNotRelative = ticketRule({
  code: 'container-url-not-relative', title: 'File in a container has an absolute URL', spec: 'JDF appendix 4.6',
  description: 'A FileSpec with Container/FileSpec names a file inside that container (zip, MIME package): its URL must be a relative URI, resolved against where the container is extracted.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="file:///c:/a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec></ResourcePool></JDF>'],
  clean: ['<JDF><ResourcePool><FileSpec URL="a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec></ResourcePool></JDF>'],
}, () => 'This FileSpec is inside a container, so its URL must be relative to the container (appendix 4.6); give the path inside the container.', {
  checkReference(ref, _doc, report) {
    if (ref.inContainer && ref.kind !== 'relative-path') report({ offset: 0 });
  },
});

export const identifierNotAbsoluteUri = ticketRule({
  code: 'identifier-not-absolute-uri', title: 'Identifier is not an absolute URI', spec: 'RFC 3986 4.3; JDF 1.x DevCaps/@DevNS, PDFXParams/@PDFXRegistryName',
  description: 'Some schema attributes typed as URIs identify rather than locate (DevNS, a namespace name; PDFXRegistryName, a registry). They are never resolved or looked for, but must be absolute URIs: a scheme, and only URI characters.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><DevCaps DevNS="CIP4 JDF"/></ResourcePool></JDF>', '<JDF><ResourcePool><PDFXParams PDFXRegistryName="www.color.org"/></ResourcePool></JDF>'],
  clean: ['<JDF><ResourcePool><DevCaps DevNS="http://www.CIP4.org/JDFSchema_1_1"/><PDFXParams PDFXRegistryName="http://www.color.org"/></ResourcePool></JDF>'],
}, (a) => `This identifier ${a.why}; it must be an absolute URI such as http://www.CIP4.org/JDFSchema_1_1 (RFC 3986 4.3).`, {
  // RFC 3986 4.3: absolute-URI = scheme ":" hier-part [ "?" query ]; its characters those of 2.1-2.3.
  checkIdentifier(value, report) {
    const ref = parseReference(value);
    const bad = NOT_IN_URI.exec(value);
    if (ref.scheme !== undefined && bad === null && ref.fragment === undefined) return;
    const why = ref.scheme === undefined ? 'has no scheme' : bad !== null ? `holds ${bad[0] === ' ' ? 'a space' : `'${bad[0]}'`}` : 'has a fragment';
    report({ offset: bad !== null && ref.scheme !== undefined ? bad.index : 0, args: { why } });
  },
});

export const noBase = ticketRule({
  code: 'no-base', title: 'Relative reference without a base', spec: 'JDF appendix 2.2, 4.6',
  description: 'A relative URL with no RunList/@Directory resolves against the folder of the ticket, which is unknown when the ticket comes from standard input; pass --base. Inside a container (appendix 4.6) that names no file (its FileSpec has no URL; its FileSpecRef names no resource, leads back in a cycle, or its Part matches no partition), the message says so instead: --base would not help.',
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="a.pdf"/></ResourcePool></JDF>', '<JDF><ResourcePool><FileSpec URL="a.pdf"><Container><FileSpecRef rRef="Z"/></Container></FileSpec></ResourcePool></JDF>'], clean: [OK],
}, (a) => (a.container
  ? 'This file is inside a container that names no file (no URL, or a FileSpecRef that names no resource, leads back or whose Part matches nothing), so it cannot be resolved; give the container its URL.'
  : 'This relative URL has no base (no Directory and no ticket location); pass --base to resolve it.'), {
  checkReference(ref, _doc, report) {
    if (ref.kind === 'absolute' || ref.base.uri !== null || ref.role !== 'url' || ref.value.trim() === '') return;
    report(ref.inContainer && ref.base.source === 'container' ? { offset: 0, args: { container: 1 } } : { offset: 0 });
  },
});

/** The readings say what these would say about the resolution, and more. */
const READINGS_SUPERSEDE: readonly string[] = ['drive-lost-in-resolution', 'base-last-segment-dropped'];

export const consumersDisagree = ticketRule({
  code: 'consumers-disagree', title: 'Consumers would open different files', spec: 'RFC 3986 5.2; RFC 8089 E.2.1; WHATWG URL',
  description: "Strict RFC 3986, RFC 8089 E.2.1 (drive-preserving), the WHATWG URL parser (browsers, Node) and the string join of CIP4's JDF library for Java would not all open the same file. The message lists each reading. The string join is what JDFLibJ's UrlUtil.getURLWithDirectory (behind JDFRunList.getFileURL) does with RunList/@Directory and FileSpec/@URL: a URL with a scheme (a ':' before any '/') is taken as it is; a URL starting with '/' keeps only the Directory's scheme, so /abs/x.pdf against file://host/dir is file://abs/x.pdf (its first segment becomes the host) and //h/x is file://h/x; otherwise it is Directory + '/' + URL (the '/' only when the Directory lacks one); then, after the '//' or '///' that ends the scheme part, empty and '.' segments are dropped and each '..' removes the nearest segment before it (the host too), with no trailing '/'. It applies only where the base is a Directory. Where the readings differ only because of the value's backslashes (with each written '/', they agree), the backslash finding (or unc-path-as-url) is the cause and carries them in its `readings` instead (src/rules/causes.ts).",
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: [OK.replace('file:///c:/jobs/', 'file:///c:/jobs/Title-J626103').replace('a.pdf', '../F-22/job001.pdf')],
  clean: [OK],
}, (a) => `Consumers would open different files: ${a.readings}. ${a.advice}`, {
  checkReference({ role, value, kind, base, findings }, { layer }, report) {
    if (role !== 'url' || base.uri === null || kind === 'absolute' || value.trim() === '') return;
    const fromDirectory = base.source === 'directory';
    const differing = layer.disagreement(value.trim(), base.uri, fromDirectory);
    if (!differing) return;
    let readings = '';
    for (const r of differing) readings += `${readings === '' ? '' : '; '}${r.consumer} ${r.href === null ? '(fails)' : redactPassword(r.href)}`;
    const supersedes = READINGS_SUPERSEDE;
    // One cause, one finding (causes.ts): readings that differ only because of the backslashes go to their finding.
    const cause = findings.find((f) => READINGS_GO_TO.includes(f.code));
    if (cause !== undefined && layer.disagreement(value.trim().replace(/\\/g, '/'), base.uri, fromDirectory) === null) {
      report({ offset: 0, args: { readings }, supersedes, into: cause.code });
      return;
    }
    const advice = base.uri.endsWith('/') ? 'Write the reference so that every reading agrees.' : "End the Directory with '/'.";
    report({ offset: 0, args: { readings, advice }, supersedes });
  },
});

export const ticketRules: TicketRule[] = [
  xmlEmpty, xmlMalformed, xmlTooDeep, xmlSeveralRoots, invalidXmlChar, invalidEncodingBytes, unsupportedEncoding, encodingMismatch, doctypeEntities,
  undefinedEntity, bareAmpersand, ltInAttribute, invalidCharRef, fileTooLarge, notATicket,
  danglingRRef, rRefCycle, partNoMatch, containerUrlNotRelative, identifierNotAbsoluteUri, noBase, consumersDisagree,
];
