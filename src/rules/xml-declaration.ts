// xml-declaration: the XML declaration at the start of a ticket, checked as XML 1.0 2.8 writes it. The reader
// finds the problem as it decodes the bytes (src/ticket/xml/declaration.ts reads the declaration once, for its
// encoding and for this rule); a declaration elsewhere in the file is markup.ts's xml-declaration-misplaced.
import { sev } from './helpers.js';
import { ticketRule } from './ticket.js';

type Args = Record<string, string | number>;

/** What each kind of problem (DeclarationProblemKind) says. */
const PROBLEMS: Record<string, (a: Args) => string> = {
  target: (a) => `it starts <?${a.name}, not <?xml (the target xml in any other case is reserved)`,
  space: () => 'a pseudo-attribute follows the one before it without white space',
  syntax: (a) => (a.name ? `${a.name} has no '=' and quoted value` : 'it holds something that is not a pseudo-attribute (name="value")'),
  unknown: (a) => `'${a.name}' is not version, encoding or standalone (they are written in lower case)`,
  'no-version': () => 'it has no version (write version="1.0" first)',
  order: (a) => `${a.name} stands out of order (version, then encoding, then standalone, each once)`,
  value: (a) => (VALUES[a.name as string] ?? (() => `the value of ${a.name} is not one XML allows`))(a),
  quote: (a) => `the value of ${a.name} does not end with its quote`,
  unclosed: () => "it does not end with '?>'",
};

/** What a value its production does not allow says, for each pseudo-attribute. */
const VALUES: Record<string, (a: Args) => string> = {
  version: (a) => `the version '${a.value}' is not 1.0 (VersionNum is '1.' and digits)`,
  encoding: (a) => `the encoding name '${a.value}' is not a letter followed by letters, digits, '.', '_' and '-'`,
  standalone: (a) => `standalone is '${a.value}', not 'yes' or 'no'`,
};

const BODY = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';

export const xmlDeclaration = ticketRule({
  code: 'xml-declaration', title: 'XML declaration not well-formed', spec: 'XML 1.0 2.8, 2.9, 4.3.3',
  description: 'The XML declaration at the start of the file breaks its grammar: `<?xml`, then version, encoding and standalone in that order (version required, each once, names in lower case, values in quotes), then `?>`. The version is `1.` and digits (XML 1.0 2.8: a 1.0 parser reads a 1.1 document as 1.0, so it is no finding), the encoding name a letter followed by letters, digits, `.`, `_` and `-`, standalone `yes` or `no`. Strict parsers reject the file, and lenient ones may read its encoding differently. The first problem is reported; the file is read all the same.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: [
    `<?xml versioN="1.0"?>${BODY}`,
    `<?xml?>${BODY}`,
    `<?xml version="1.0" standalone="maybe"?>${BODY}`,
    `<?xml version="9.9"?>${BODY}`,
    `<?xml encoding="UTF-8" version="1.0"?>${BODY}`,
    `<?XML version="1.0"?>${BODY}`,
  ],
  clean: [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${BODY}`,
    `<?xml version = '1.0'\n  encoding='ISO-8859-1' ?>${BODY}`,
    `<?xml version="1.1"?>${BODY}`,
    `<?xml-stylesheet href="a.xsl"?>${BODY}`,
    BODY,
  ],
}, (a) => `The XML declaration is not well-formed: ${(PROBLEMS[a.problem as string] ?? PROBLEMS['syntax']!)(a)}. Strict parsers reject the file; correct it (for example <?xml version="1.0" encoding="UTF-8"?>).`);
