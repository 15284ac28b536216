// Identifiers the schemas type as URIs (DevNS, PDFXRegistryName): an absolute URI (RFC 3986 4.3), nothing more.
import type { ReferenceKind } from '../rules/types.js';
import { parseReference } from '../uri/parse.js';

export interface IdentifierCheck {
  kind: ReferenceKind;
  scheme?: string;
  findings: Array<{ code: string; offset: number; args: Record<string, string | number> }>;
}

// RFC 3986 2: characters that never appear in a URI (IRIs, RFC 3987, allow the non-ASCII ones).
const NOT_IN_URI = /[\u0000-\u0020"<>\\^`{|}\u007f]/;

/** RFC 3986 4.3: absolute-URI = scheme ":" hier-part [ "?" query ]; its characters those of 2.1-2.3. */
export function checkIdentifier(value: string): IdentifierCheck {
  const ref = parseReference(value);
  const kind: ReferenceKind = ref.scheme !== undefined ? 'absolute' : ref.authority !== undefined ? 'network-path' : ref.path.startsWith('/') ? 'absolute-path' : 'relative-path';
  const out: IdentifierCheck = { kind, findings: [] };
  if (ref.scheme !== undefined) out.scheme = ref.scheme.toLowerCase();
  const bad = NOT_IN_URI.exec(value);
  if (ref.scheme === undefined || bad !== null || ref.fragment !== undefined) {
    const why = ref.scheme === undefined ? 'has no scheme' : bad !== null ? `holds ${bad[0] === ' ' ? 'a space' : `'${bad[0]}'`}` : 'has a fragment';
    out.findings.push({ code: 'identifier-not-absolute-uri', offset: bad !== null && ref.scheme !== undefined ? bad.index : 0, args: { why } });
  }
  return out;
}
