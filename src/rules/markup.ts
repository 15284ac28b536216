// Findings about markup that DTD-aware or lenient consumers read differently from us: a ticket must not name
// a file we do not see. validateTicket reports them; they are here so the catalog, the docs and SARIF know them.
import { sev } from './helpers.js';
import { ticketRule } from './ticket.js';

const OK = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';

export const duplicateAttribute = ticketRule({
  code: 'duplicate-attribute', title: 'Attribute given twice', spec: 'XML 1.0 3.1 (Unique Att Spec)',
  description: 'An element gives the same attribute twice: the file is not well-formed, and consumers disagree on which value counts (we check the first, fast-xml-parser and others keep the last). Keep one.',
  severity: sev('error', 'error', 'error'), fixable: false,
  flagged: ['<JDF><ResourcePool><FileSpec URL="a.pdf" URL="file:///etc/passwd"/></ResourcePool></JDF>'], clean: [OK],
}, (a) => `The attribute ${a.name} is given twice; consumers disagree on which value counts. Keep one.`);

export const markupRules = [duplicateAttribute];
