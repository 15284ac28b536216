// Vendor vocabularies a shop opts into by name (data/vendor-vocabularies.json, generated into vendor-table.ts):
// attributes the CIP4 schemas do not type, matched by namespace URI, never by the prefix a ticket happens to use.
import { nearest } from '../rules/settings.js';
import { VENDOR_TABLE } from './vendor-table.js';
import type { VocabularyRow } from './vocabulary.js';

/** The names ValidateOptions.vocabularies, the config's "vocabularies" and --vocabulary take. */
export const VENDOR_VOCABULARIES: readonly string[] = Object.keys(VENDOR_TABLE);

/** Why `name` is no vendor vocabulary (with the nearest), or undefined when it is one. */
export function unknownVocabulary(name: string): string | undefined {
  if (VENDOR_VOCABULARIES.includes(name)) return undefined;
  const near = nearest(name, VENDOR_VOCABULARIES);
  return `'${name}' is no vocabulary of jdf-filespec (${near !== undefined ? `did you mean '${near}'? ` : ''}there are ${VENDOR_VOCABULARIES.join(', ')})`;
}

const DECLARATION = /\sxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The rows of the named vocabularies for this ticket's text: a vendor attribute written out with each prefix the
 * ticket binds to one of its namespaces (Namespaces in XML 1.0 section 6.2; the walk checks the binding where each
 * element stands); rows whose namespaces the ticket never declares are left out.
 */
export function vendorRows(names: readonly string[], text: string): VocabularyRow[] {
  const rows = names.flatMap((n) => VENDOR_TABLE[n] ?? []);
  if (rows.length === 0) return [];
  const prefixes = new Map<string, Set<string>>(); // URI to the prefixes bound to it ("" for a default namespace)
  for (const m of text.matchAll(DECLARATION)) {
    const uri = m[2] ?? m[3] ?? '';
    let set = prefixes.get(uri);
    if (set === undefined) prefixes.set(uri, (set = new Set()));
    set.add(m[1] ?? '');
  }
  const bound = (uris: readonly string[]) => uris.flatMap((u) => [...(prefixes.get(u) ?? [])]);
  const out: VocabularyRow[] = [];
  for (const row of rows) {
    if (row.elementNamespaces !== undefined && bound(row.elementNamespaces).length === 0) continue;
    if (row.attributeNamespaces === undefined) {
      out.push(row);
      continue;
    }
    // An attribute without a prefix is in no namespace (6.2): only prefixed names can be the vendor's.
    for (const p of new Set(bound(row.attributeNamespaces))) if (p !== '') out.push({ ...row, attribute: `${p}:${row.attribute}` });
  }
  return out;
}
