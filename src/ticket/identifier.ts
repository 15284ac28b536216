// Identifiers the schemas type as URIs (DevNS, PDFXRegistryName): what kind of reference one is. Whether it is
// an absolute URI is the identifier-not-absolute-uri rule's (src/rules/ticket.ts).
import type { ReferenceKind } from '../rules/types.js';
import { parseReference } from '../uri/parse.js';

/** RFC 3986 4.2: the kind of reference, and its scheme in lower case when it has one. */
export function identifierKind(value: string): { kind: ReferenceKind; scheme?: string } {
  const ref = parseReference(value);
  const kind: ReferenceKind = ref.scheme !== undefined ? 'absolute' : ref.authority !== undefined ? 'network-path' : ref.path.startsWith('/') ? 'absolute-path' : 'relative-path';
  return ref.scheme !== undefined ? { kind, scheme: ref.scheme.toLowerCase() } : { kind };
}
