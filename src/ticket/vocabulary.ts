// Which attributes of which elements hold URLs: the one vocabulary table (generated from the CIP4 schemas, see
// data/ORIGIN.md), looked up by schema family and local name (any namespace prefix), plus what a shop adds.
import { VOCABULARY_TABLE } from './vocabulary-table.js';

/** The schema families whose URL-typed attributes differ: JDF 1.x, JMF 1.x, XJDF 2.x, XJMF 2.x. */
export type Family = 'JDF' | 'JMF' | 'XJDF' | 'XJMF';
/** `url`: names a file or endpoint; `directory`: names a folder; `identifier`: a URI that names nothing to open (DevNS). */
export type VocabularyRole = 'url' | 'directory' | 'identifier';

export interface VocabularyRow extends Qualifiers {
  /** Local name of the element; "*": any element of those families. */
  element: string;
  /** The attribute's name as the ticket writes it (with a vendor row's prefix: vendorRows writes it out). */
  attribute: string;
  role: VocabularyRole;
  families: readonly Family[];
}

/** What a vendor's row asks of an element beyond its local name (the walk checks it: Walk.applicable). */
export interface Qualifiers {
  /** The element's namespace must be one of these URIs (a vendor's element, such as HDM:ReportList). */
  elementNamespaces?: readonly string[] | undefined;
  /** The attribute's prefix must be bound to one of these URIs where the element stands. */
  attributeNamespaces?: readonly string[] | undefined;
  /** The element's name as written, prefix and all (--url-attribute HDM:ReportList/@Directory). */
  elementQname?: string | undefined;
  /** The folder is the base of FileSpec/@URL beneath the element, as RunList/@Directory is (appendix 4.6). */
  base?: true | undefined;
}

export interface UrlAttribute extends Qualifiers {
  attribute: string;
  role: VocabularyRole;
}

/** Root elements and the family each starts; a JDF inside a JMF message is read as JDF, an XJDF inside PrintTalk as XJDF. */
export const FAMILY_ROOTS: ReadonlyMap<string, Family> = new Map([['JDF', 'JDF'], ['JMF', 'JMF'], ['XJDF', 'XJDF'], ['XJMF', 'XJMF']]);

export const TICKET_ROOTS: ReadonlySet<string> = new Set(['JDF', 'XJDF', 'JMF', 'XJMF', 'PrintTalk']);

/** PrintTalk 2.x carries XJDF elements by their namespace (url-attributes.json, printTalk.summary). */
export const XJDF_NAMESPACE = 'http://www.CIP4.org/JDFSchema_2_0';

const FAMILIES: readonly Family[] = ['JDF', 'JMF', 'XJDF', 'XJMF'];

/**
 * A row as the walk reads it, every field written out in one order: one shape for every row (the draft's too), so
 * the walk's reads of a row see one map, not one per set of fields a row happens to have (object rest made them).
 */
const urlAttribute = (row: UrlAttribute): UrlAttribute => ({
  attribute: row.attribute,
  role: row.role,
  elementNamespaces: row.elementNamespaces,
  attributeNamespaces: row.attributeNamespaces,
  elementQname: row.elementQname,
  base: row.base,
});

/**
 * An empty list of rows with the elements kind of a list that holds rows (V8 gives a bare `[]` another kind, which
 * the walk's reads of a list then meet as a second map): a row put in and taken out, the kind kept.
 */
function rowList(): UrlAttribute[] {
  const list = [urlAttribute({ attribute: '', role: 'url' })];
  list.pop();
  return list;
}

/** The table for one run: the schemas' rows and any the caller adds (`--url-attribute`). */
export class Vocabulary {
  private readonly byFamily = new Map<Family, Map<string, UrlAttribute[]>>();
  private readonly anyElement = new Map<Family, UrlAttribute[]>();
  /** The family attributesOf last read, and its two tables: a ticket asks in one family, element after element. */
  private lastFamily: Family | undefined;
  private lastElements = new Map<string, UrlAttribute[]>();
  private lastAny: UrlAttribute[] = rowList();
  /** Every attribute local name in the table (any family). */
  readonly names = new Set<string>();
  /** Whether a row asks more than the element's local name (Qualifiers): the walk then checks each element. */
  readonly qualified: boolean;

  constructor(rows: readonly VocabularyRow[]) {
    for (const f of FAMILIES) {
      this.byFamily.set(f, new Map());
      this.anyElement.set(f, rowList());
    }
    let qualified = false;
    for (const row of rows) {
      this.names.add(row.attribute);
      const entry = urlAttribute(row);
      if (row.elementNamespaces !== undefined || row.attributeNamespaces !== undefined || row.elementQname !== undefined) qualified = true;
      for (const f of row.families) {
        if (row.element === '*') {
          addOnce(this.anyElement.get(f)!, entry);
          continue;
        }
        const elements = this.byFamily.get(f)!;
        const list = elements.get(row.element) ?? rowList();
        addOnce(list, entry);
        elements.set(row.element, list);
      }
    }
    this.qualified = qualified;
    // Each element's list includes the any-element rows, so a lookup is one map read.
    for (const f of FAMILIES) {
      for (const list of this.byFamily.get(f)!.values()) for (const a of this.anyElement.get(f)!) addOnce(list, a);
    }
  }

  /** Whether this table reads this attribute on an element of this local name, in any family. */
  reads(local: string, attribute: string): boolean {
    return FAMILIES.some((f) => this.attributesOf(f, local).some((u) => u.attribute === attribute));
  }

  /** The URL attributes an element with this local name carries in documents of this family. */
  attributesOf(family: Family, local: string): readonly UrlAttribute[] {
    if (family !== this.lastFamily) {
      this.lastFamily = family;
      this.lastElements = this.byFamily.get(family)!;
      this.lastAny = this.anyElement.get(family)!;
    }
    return this.lastElements.get(local) ?? this.lastAny;
  }
}

function addOnce(list: UrlAttribute[], entry: UrlAttribute): void {
  if (!list.some((a) => a.attribute === entry.attribute && a.elementQname === entry.elementQname && a.elementNamespaces === entry.elementNamespaces)) list.push(entry);
}

/**
 * Parses `ELEMENT/@ATTR` or `ELEMENT/@ATTR=directory` (the `--url-attribute` option): an attribute the schemas
 * do not type, such as a vendor's hot folder, read in every family. ELEMENT is a local name (or `*`), or a name
 * with its prefix (`HDM:ReportList`), matched as written; ATTR is matched as written, so a vendor's attribute keeps
 * its prefix (`Device/@HDM:Hotfolder=directory`). Undefined when the text is not of that form.
 */
export function parseUrlAttribute(text: string): VocabularyRow | undefined {
  const m = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*|\*)\/@((?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*)(?:=(url|directory))?$/.exec(text.trim());
  if (!m || (m[1] !== undefined && m[2] === '*')) return undefined;
  const row: VocabularyRow = { element: m[2]!, attribute: m[3]!, role: (m[4] as 'url' | 'directory' | undefined) ?? 'url', families: FAMILIES };
  return m[1] !== undefined ? { ...row, elementQname: `${m[1]}:${m[2]}` } : row;
}

/**
 * The XJDF 2.0 drafts (written by xJdfLib 0.5 around 2013-2015) kept resources in ParameterSet/Parameter, which
 * the released 2.0 replaced with ResourceSet/Resource, and typed Preview/@URL (resolved against Preview/@Directory,
 * as in JDF 1.x) and Preview/@Directory as URLs. An XJDF Preview whose parent is a Parameter is read so: 4 uses in
 * the corpus (xJdfLib's and xPrintTalkLib's test packages, JDFLibJ's 29694232.ptk).
 */
export const DRAFT_XJDF_PREVIEW: readonly UrlAttribute[] = [urlAttribute({ attribute: 'URL', role: 'url' }), urlAttribute({ attribute: 'Directory', role: 'directory' })];

const defaultVocabulary = new Vocabulary(VOCABULARY_TABLE);

/** The schemas' table, with any rows the caller adds. */
export function vocabularyWith(extra: readonly VocabularyRow[] = []): Vocabulary {
  return extra.length === 0 ? defaultVocabulary : new Vocabulary([...VOCABULARY_TABLE, ...extra]);
}

/**
 * An inline resource reference: FileSpecRef, LayoutElementRef, ConstraintRef, ... (not the *Link of a ResourceLinkPool).
 * Asked of every element: the last three characters read one by one, which the compiler inlines (endsWith it calls).
 */
export const isRefElement = (local: string): boolean => {
  const n = local.length;
  return n > 3 && local.charCodeAt(n - 1) === 0x66 && local.charCodeAt(n - 2) === 0x65 && local.charCodeAt(n - 3) === 0x52; // "Ref"
};

/**
 * Elements with an ID that are not resources an rRef may name: process nodes and their roots, JMF and XJMF
 * messages. (Audits are recognised by their AuditPool parent.)
 */
export const NOT_RESOURCES: ReadonlySet<string> = new Set(['JDF', 'XJDF', 'JMF', 'XJMF', 'PrintTalk', 'Query', 'Command', 'Response', 'Signal', 'Acknowledge', 'Registration']);
