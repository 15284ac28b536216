// Findings about a whole ticket: its bytes, its XML, its references between resources and its bases.
// validateTicket reports them; they are here so the catalog, the docs and SARIF know them.
import { examples, sev } from './helpers.js';
import type { Rule, RuleMeta } from './types.js';

type TicketRule = Rule & { meta: RuleMeta & { scope: 'ticket' } };

export function ticketRule(meta: Omit<RuleMeta, 'scope' | 'examples'> & { flagged: string[]; clean: string[] }, message: Rule['message']): TicketRule {
  const { flagged, clean, ...rest } = meta;
  return {
    meta: { ...rest, scope: 'ticket', examples: examples(flagged.map((value) => ({ value })), clean.map((value) => ({ value }))) },
    message,
    check() {},
  };
}

const OK = '<JDF Version="1.4"><ResourcePool><RunList ID="RL1" Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';
const fs = (url: string) => `<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool></JDF>`;

export const xmlEmpty = ticketRule({
  code: 'xml-empty', title: 'Empty file', spec: 'XML 1.0 2.1',
  description: 'The file has no XML at all (it is empty or only white space), so it names no files.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['', '  \n'], clean: [OK],
}, () => 'The file is empty; a JDF ticket needs a root element.');

export const xmlMalformed = ticketRule({
  code: 'xml-malformed', title: 'Malformed XML', spec: 'XML 1.0 2.1',
  description: 'The XML is not well-formed (for example an unclosed or mismatched tag, or binary data), so no reference can be trusted; nothing else in the file is checked.',
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
}, (a) => `The value holds ${a.code}, which XML does not allow; remove it, or escape it in the URL as %XX.`);

export const xmlSeveralRoots = ticketRule({
  code: 'xml-several-roots', title: 'Several root elements', spec: 'XML 1.0 2.1',
  description: 'A well-formed document has exactly one root element; a second one is usually a concatenation accident. The references of every root are still read.',
  severity: sev('error', 'error', 'error'), fixable: false, flagged: ['<JDF/><JDF/>'], clean: [OK],
}, (a) => `A second root element <${a.name}> follows the first; a ticket has exactly one root element.`);

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
}, (a) => `The DOCTYPE declares ${a.what}; they are not expanded${a.external ? ' and nothing external is fetched' : ''}. Remove the DOCTYPE.`);

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
}, (a) => `The root element <${a.name}> is not JDF, XJDF or JMF; its FileSpec references are checked all the same.`);

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
  : `rRef="${a.id}" names no resource in this ticket; add the resource or correct the ID.`));

export const rRefCycle = ticketRule({
  code: 'rref-cycle', title: 'rRef cycle', spec: 'JDF 1.x 3.9.2 (rRef)',
  description: 'Following rRefs leads back to a resource already on the way; the cycle is cut there.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><RunList ID="A"><RunListRef rRef="B"/></RunList><RunList ID="B"><RunListRef rRef="A"/></RunList><RunList ID="C"><RunListRef rRef="A"/></RunList></ResourcePool></JDF>'],
  clean: [OK],
}, (a) => `rRef="${a.id}" leads back to a resource that refers to it; break the cycle.`);

export const containerUrlNotRelative = ticketRule({
  code: 'container-url-not-relative', title: 'File in a container has an absolute URL', spec: 'JDF appendix 4.6',
  description: 'A FileSpec with Container/FileSpec names a file inside that container (zip, MIME package): its URL must be a relative URI, resolved against where the container is extracted.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="file:///c:/a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec></ResourcePool></JDF>'],
  clean: ['<JDF><ResourcePool><FileSpec URL="a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec></ResourcePool></JDF>'],
}, () => 'This FileSpec is inside a container, so its URL must be relative to the container (appendix 4.6); give the path inside the container.');

export const identifierNotAbsoluteUri = ticketRule({
  code: 'identifier-not-absolute-uri', title: 'Identifier is not an absolute URI', spec: 'RFC 3986 4.3; JDF 1.x DevCaps/@DevNS, PDFXParams/@PDFXRegistryName',
  description: 'Some schema attributes typed as URIs identify rather than locate (DevNS, a namespace name; PDFXRegistryName, a registry). They are never resolved or looked for, but must be absolute URIs: a scheme, and only URI characters.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><DevCaps DevNS="CIP4 JDF"/></ResourcePool></JDF>', '<JDF><ResourcePool><PDFXParams PDFXRegistryName="www.color.org"/></ResourcePool></JDF>'],
  clean: ['<JDF><ResourcePool><DevCaps DevNS="http://www.CIP4.org/JDFSchema_1_1"/><PDFXParams PDFXRegistryName="http://www.color.org"/></ResourcePool></JDF>'],
}, (a) => `This identifier ${a.why}; it must be an absolute URI such as http://www.CIP4.org/JDFSchema_1_1 (RFC 3986 4.3).`);

export const noBase = ticketRule({
  code: 'no-base', title: 'Relative reference without a base', spec: 'JDF appendix 2.2, 4.6',
  description: 'A relative URL with no RunList/@Directory resolves against the folder of the ticket, which is unknown when the ticket comes from standard input; pass --base.',
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="a.pdf"/></ResourcePool></JDF>'], clean: [OK],
}, () => 'This relative URL has no base (no Directory and no ticket location); pass --base to resolve it.');

export const consumersDisagree = ticketRule({
  code: 'consumers-disagree', title: 'Consumers would open different files', spec: 'RFC 3986 5.2; RFC 8089 E.2.1; WHATWG URL',
  description: "Strict RFC 3986, RFC 8089 E.2.1 (drive-preserving), the WHATWG URL parser (browsers, Node) and the string join of CIP4's JDF library for Java would not all open the same file. The message lists each reading. The string join is what JDFLibJ's UrlUtil.getURLWithDirectory (behind JDFRunList.getFileURL) does with RunList/@Directory and FileSpec/@URL: a URL with a scheme (a ':' before any '/') is taken as it is; a URL starting with '/' keeps only the Directory's scheme, so /abs/x.pdf against file://host/dir is file://abs/x.pdf (its first segment becomes the host) and //h/x is file://h/x; otherwise it is Directory + '/' + URL (the '/' only when the Directory lacks one); then, after the '//' or '///' that ends the scheme part, empty and '.' segments are dropped and each '..' removes the nearest segment before it (the host too), with no trailing '/'. It applies only where the base is a Directory.",
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: [OK.replace('file:///c:/jobs/', 'file:///c:/jobs/Title-J626103').replace('a.pdf', '../F-22/job001.pdf')],
  clean: [OK],
}, (a) => `Consumers would open different files: ${a.readings}. ${a.advice}`);

export const ticketRules: TicketRule[] = [
  xmlEmpty, xmlMalformed, xmlTooDeep, xmlSeveralRoots, invalidXmlChar, invalidEncodingBytes, unsupportedEncoding, encodingMismatch, doctypeEntities,
  undefinedEntity, bareAmpersand, ltInAttribute, invalidCharRef, fileTooLarge, notATicket,
  danglingRRef, rRefCycle, containerUrlNotRelative, identifierNotAbsoluteUri, noBase, consumersDisagree,
];
