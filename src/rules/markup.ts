// Findings about markup that DTD-aware or lenient consumers read differently from us: a ticket must not name
// a file we do not see. duplicate-attribute, xml-declaration-misplaced, comment-double-hyphen, tag-malformed and
// cdata-end-in-text are found by the lexer as it reads (src/ticket/xml); doctype-attribute-default looks at the
// DOCTYPE the lexer read.
import { redactPassword } from '../fileurl/redact.js';
import { sev } from './helpers.js';
import { ticketRule } from './ticket.js';
import type { TicketLayer } from './ticket-view.js';

/** "(and N more)" for a problem reported once with the count of the others. */
const andMore = (a: Record<string, string | number>) => (Number(a.more) > 0 ? ` (and ${a.more} more)` : '');

const OK = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';

export const duplicateAttribute = ticketRule({
  code: 'duplicate-attribute', title: 'Attribute given twice', spec: 'XML 1.0 3.1 (Unique Att Spec)',
  description: 'An element gives the same attribute twice: the file is not well-formed, and consumers disagree on which value counts (we check the first, fast-xml-parser and others keep the last). Keep one.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="a.pdf" URL="file:///etc/passwd"/></ResourcePool></JDF>'], clean: [OK],
}, (a) => `The attribute ${a.name} is given twice; consumers disagree on which value counts. Keep one.`);

export const doctypeAttributeDefault = ticketRule({
  code: 'doctype-attribute-default', title: 'DOCTYPE gives a URL attribute a default', spec: 'XML 1.0 3.3.2, 5.1',
  description: 'The internal subset of the DOCTYPE declares a default (or #FIXED) value for an attribute we read (FileSpec/@URL, RunList/@Directory, an rRef, an ID, xml:base, or one named with --url-attribute or in the urlAttributes of a config), or refers to a parameter entity whose declarations may do so. A DTD-aware consumer applies the default and opens a file the ticket does not show, which we never see and never check. Remove the DOCTYPE; JDF tickets do not need one.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: [
    '<!DOCTYPE JDF [<!ATTLIST FileSpec URL CDATA "file:///etc/passwd">]><JDF><ResourcePool><FileSpec/></ResourcePool></JDF>',
    '<!DOCTYPE JDF [<!ATTLIST RunList Directory CDATA #FIXED "file:///etc/">]><JDF/>',
    '<!DOCTYPE JDF [<!ENTITY % d "<!ATTLIST FileSpec URL CDATA \'x.pdf\'>"> %d;]><JDF/>',
  ],
  clean: [OK, '<!DOCTYPE JDF [<!ATTLIST FileSpec URL CDATA #IMPLIED Status CDATA "Available">]><JDF/>'],
}, (a) => `The DOCTYPE declares ${a.what}: DTD-aware consumers apply it, and it is never checked here; remove the DOCTYPE.`, {
  // A default for an attribute we read, and parameter-entity references (whose replacement text may declare such
  // defaults): a ticket must not name a file in silence.
  checkDoctype(doctype, layer, report) {
    for (const d of doctype.defaults) {
      if (!readByUs(layer, d.element, d.attribute)) continue;
      report({ offset: d.offset, args: { what: `${d.fixed ? 'the fixed value' : 'the default'} "${redactPassword(d.value)}" for ${d.element}/@${d.attribute}` } });
    }
    for (const p of doctype.parameterReferences) {
      report({ offset: p.offset, args: { what: `the parameter entity %${p.name}; (its declarations are not read here)` } });
    }
  },
});

/** Whether a consumer that applies the default would read it where we read references, bases or resource links. */
function readByUs(layer: TicketLayer, element: string, attribute: string): boolean {
  const local = element.slice(element.indexOf(':') + 1); // the local part: "jdf:FileSpec" is "FileSpec"
  return layer.isUrlAttribute(local, attribute)
    || (attribute === 'rRef' && layer.isRefElement(local)) || attribute === 'ID' || attribute === 'xml:base';
}

export const xmlDeclarationMisplaced = ticketRule({
  code: 'xml-declaration-misplaced', title: 'XML declaration not at the start', spec: 'XML 1.0 2.8, 2.6',
  description: 'An XML declaration (<?xml ...?>) stands anywhere but at the very start of the file: after white space, a comment or another declaration (often two files concatenated). The PI target "xml" is reserved, so the file is not well-formed, and parsers disagree on which encoding and version apply.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<?xml version="1.0"?>\n<?xml version="1.0"?>\n' + OK, '\n<?xml version="1.0"?>' + OK], clean: ['<?xml version="1.0"?>\n' + OK],
}, (a) => `An XML declaration <?${a.target} ...?> stands after the start of the file${andMore(a)}; keep one, at the very start.`);

export const commentDoubleHyphen = ticketRule({
  code: 'comment-double-hyphen', title: "'--' inside a comment", spec: 'XML 1.0 2.5',
  description: "A comment holds '--' (or ends with '--->'), which XML does not allow: strict parsers reject the file, lenient ones may end the comment early and read what follows as markup.",
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><!-- a -- b --></JDF>', '<JDF><!-- a ---></JDF>'], clean: ['<JDF><!-- a - b --></JDF>'],
}, (a) => `A comment holds '--'${andMore(a)}, which XML does not allow; write it another way.`);

/** What tag-malformed's `problem` says (src/ticket/xml/markup-scan.ts, TagProblem). */
const TAG_PROBLEMS: Record<string, (a: Record<string, string | number>) => string> = {
  name: (a) => (a.tag === '' ? "a '<' is not followed by a name (in text, write &lt;)" : `'${a.tag}' is not an XML name`),
  space: () => 'an attribute follows the one before it without white space',
  'attribute-name': () => 'an attribute name does not start as an XML name must',
  'no-value': (a) => `the attribute ${a.attribute} has no value (="...")`,
  unquoted: (a) => `the value of ${a.attribute} is not in quotes`,
  'end-tag': () => 'the end tag holds more than its name',
};

export const tagMalformed = ticketRule({
  code: 'tag-malformed', title: 'Tag not well-formed', spec: 'XML 1.0 2.3, 3.1',
  description: "A start or end tag breaks XML's grammar: its name is not an XML Name (such as one that starts with a digit), an attribute has no value or no quotes around it, two attributes have no white space between them, or an end tag holds more than its name. fast-xml-parser lets these through; strict parsers reject the file, and lenient ones read the tag's attributes differently (we stop reading a tag's attributes where one has no quoted value), so a reference in it may be missed. Only the first such tag is reported, with how many there are.",
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: [
    '<JDF><ResourcePool><FileSpec X=bad URL="file:///c:/a.pdf"/></ResourcePool></JDF>',
    '<JDF><ResourcePool><FileSpec URL="file:///c:/a.pdf" X/></ResourcePool></JDF>',
    '<JDF><ResourcePool><1bad/></ResourcePool></JDF>',
  ],
  clean: [OK, '<JDF><ResourcePool><FileSpec URL = \'file:///c:/a.pdf\'\n  Status="Available" /></ResourcePool ></JDF>'],
}, (a) => `The tag <${a.tag}> is not well-formed: ${(TAG_PROBLEMS[a.problem as string] ?? TAG_PROBLEMS['name']!)(a)}${andMore(a)}. Parsers reject it or read it differently; correct the markup.`);

export const cdataEndInText = ticketRule({
  code: 'cdata-end-in-text', title: "']]>' in text", spec: 'XML 1.0 2.4',
  description: "Text holds ']]>', which XML allows only as the end of a CDATA section: strict parsers reject the file. Write ']]&gt;'.",
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><Comment>a ]]> b</Comment></JDF>'], clean: ['<JDF><Comment>a ]]&gt; b <![CDATA[ ]] > ]]></Comment></JDF>'],
}, (a) => `The text holds ']]>'${andMore(a)}, which only ends a CDATA section; write ']]&gt;'.`);

export const markupRules = [duplicateAttribute, doctypeAttributeDefault, xmlDeclarationMisplaced, commentDoubleHyphen, tagMalformed, cdataEndInText];
