// The DOCTYPE: found, read for what a DTD-aware consumer would take from it (XML 1.0 2.8, 3.3), and blanked so
// that nothing is declared, expanded or fetched here. The doctype rules look at what it read (checkDoctype).
import { isSpace } from './lex.js';

/** An attribute default declared in the internal subset (XML 1.0 3.3.2): "#FIXED" or a plain default value. */
export interface AttributeDefault {
  /** The element type as declared (prefix included). */
  element: string;
  attribute: string;
  /** The default value as written between its quotes. */
  value: string;
  fixed: boolean;
  /** Text offset of the ATTLIST declaration. */
  offset: number;
}

export interface Doctype {
  /** The text with the DOCTYPE blanked to spaces (line breaks kept, so positions stay). */
  text: string;
  start: number;
  /** Entity declarations (general and parameter). */
  entities: number;
  external: boolean;
  defaults: AttributeDefault[];
  /** Parameter-entity references in the internal subset (XML 1.0 2.8, PEReference): what they declare is unseen. */
  parameterReferences: Array<{ name: string; offset: number }>;
}

/** Where a quoted literal, a comment or a PI that starts at `i` ends (just past it), or -1 when none starts there. */
function skipLiteral(text: string, i: number): number {
  const ch = text[i];
  if (ch === '"' || ch === "'") { const q = text.indexOf(ch, i + 1); return q === -1 ? text.length : q + 1; }
  if (text.startsWith('<!--', i)) { const e = text.indexOf('-->', i + 4); return e === -1 ? text.length : e + 3; }
  if (text.startsWith('<?', i)) { const e = text.indexOf('?>', i + 2); return e === -1 ? text.length : e + 2; }
  return -1;
}

/** XML 1.0 3.3: the tokens of an AttlistDecl's body: names and keywords, quoted values, (enumerations). */
function attlistTokens(decl: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < decl.length) {
    const c = decl.charCodeAt(i);
    if (isSpace(c)) { i++; continue; }
    let end: number;
    if (c === 0x22 || c === 0x27) {
      end = decl.indexOf(decl[i]!, i + 1);
      end = end === -1 ? decl.length : end + 1;
    } else if (c === 0x28) {
      end = decl.indexOf(')', i);
      end = end === -1 ? decl.length : end + 1;
    } else {
      end = i;
      while (end < decl.length && !isSpace(decl.charCodeAt(end)) && decl[end] !== '"' && decl[end] !== "'" && decl[end] !== '(') end++;
    }
    tokens.push(decl.slice(i, end));
    i = end;
  }
  return tokens;
}

/** XML 1.0 3.3: AttlistDecl ::= '<!ATTLIST' S Name AttDef* S? '>', AttDef ::= S Name S AttType S DefaultDecl. */
function attributeDefaults(decl: string, offset: number): AttributeDefault[] {
  const tokens = attlistTokens(decl);
  const element = tokens[0] ?? '';
  const found: AttributeDefault[] = [];
  let k = 1;
  while (k < tokens.length) {
    const attribute = tokens[k++]!;
    if (tokens[k] === 'NOTATION') k++;
    k++; // the type, or the enumeration
    const d = tokens[k++];
    if (d === undefined) break;
    const fixed = d === '#FIXED';
    const literal = fixed ? tokens[k++] : d;
    if (literal !== undefined && (literal[0] === '"' || literal[0] === "'")) {
      found.push({ element, attribute, value: literal.slice(1, literal.endsWith(literal[0]!) && literal.length > 1 ? -1 : undefined), fixed, offset });
    }
  }
  return found;
}

/**
 * Finds the DOCTYPE before the first element, reads its internal subset for entity and attribute-list
 * declarations and parameter-entity references (comments, PIs and quoted literals stepped over), and blanks it.
 */
export function readDoctype(text: string): Doctype | null {
  // XML 1.0 2.8: the doctypedecl is in the prolog. Looked for only before the first element (a "<!DOCTYPE" after
  // it is none), not through the whole text of every ticket, most of which have none.
  const firstElement = text.search(/<[A-Za-z_]/);
  const start = (firstElement === -1 ? text : text.slice(0, firstElement)).indexOf('<!DOCTYPE');
  if (start === -1) return null;
  const doctype: Doctype = { text, start, entities: 0, external: false, defaults: [], parameterReferences: [] };
  let i = start + 9;
  let end = text.length;
  let inSubset = false;
  while (i < text.length) {
    const ch = text[i]!;
    const skipped = ch === '"' || ch === "'" || (inSubset && ch === '<') ? skipLiteral(text, i) : -1;
    if (skipped !== -1) { i = skipped; continue; }
    if (!inSubset) {
      if (ch === '[') inSubset = true;
      else if (ch === '>') { end = i + 1; break; }
      i++;
      continue;
    }
    if (ch === ']') { inSubset = false; i++; continue; }
    if (ch === '%') {
      const semi = text.indexOf(';', i);
      const name = semi === -1 ? '' : text.slice(i + 1, semi);
      if (/^[A-Za-z_:][-A-Za-z0-9._:]*$/.test(name)) { doctype.parameterReferences.push({ name, offset: i }); i = semi + 1; continue; }
    }
    if (text.startsWith('<!', i)) {
      // A markup declaration: up to its ">", quoted literals stepped over.
      let j = i + 2;
      while (j < text.length && text[j] !== '>') j = text[j] === '"' || text[j] === "'" ? skipLiteral(text, j) : j + 1;
      const decl = text.slice(i, j);
      if (decl.startsWith('<!ENTITY')) doctype.entities++;
      else if (decl.startsWith('<!ATTLIST')) doctype.defaults.push(...attributeDefaults(decl.slice(9), i));
      i = j + 1;
      continue;
    }
    i++;
  }
  doctype.external = /\b(SYSTEM|PUBLIC)\b/.test(text.slice(start, end));
  doctype.text = text.slice(0, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ') + text.slice(end);
  return doctype;
}
