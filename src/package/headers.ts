// MIME header fields: RFC 5322 2.2 (fields, unfolding), RFC 2045 5.1 (Content-Type and its parameters),
// RFC 2045 6.1 (Content-Transfer-Encoding), RFC 2392 2 (Content-ID), RFC 2557 4 (Content-Location),
// RFC 2183 (Content-Disposition).
import { utf8Strict } from '../escape/charsets.js';

export interface HeaderField {
  /** Lower-case field name. */
  name: string;
  /** The unfolded value, trimmed. */
  value: string;
}

export interface MediaType {
  /** Lower-case type/subtype, e.g. "multipart/related". */
  type: string;
  /** Parameters with lower-case names; values unquoted. */
  params: Map<string, string>;
}

/** RFC 5322 2.2.3: a header block (without its blank line) into fields; continuation lines are unfolded. */
export function parseHeaderBlock(text: string): { fields: HeaderField[]; bad: string[] } {
  const fields: HeaderField[] = [];
  const bad: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const line of lines) {
    if (line === '') continue;
    if ((line[0] === ' ' || line[0] === '\t') && fields.length > 0) {
      fields[fields.length - 1]!.value = (fields[fields.length - 1]!.value + ' ' + line.trim()).trim();
      continue;
    }
    const colon = line.indexOf(':');
    // RFC 5322 3.6.8: field-name is printable ASCII except ':'.
    if (colon <= 0 || !/^[!-9;-~]+$/.test(line.slice(0, colon))) {
      bad.push(line);
      continue;
    }
    fields.push({ name: line.slice(0, colon).toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return { fields, bad };
}

export function field(fields: readonly HeaderField[], name: string): string | undefined {
  return fields.find((f) => f.name === name)?.value;
}

/** RFC 5322 3.2.2: comments in parentheses (nested, with quoted pairs) removed, outside quoted strings. */
function stripComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\' && (quoted || depth > 0)) {
      if (depth === 0) out += ch + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (depth === 0 && ch === '"') quoted = !quoted;
    if (!quoted) {
      if (ch === '(') { depth++; continue; }
      if (ch === ')' && depth > 0) { depth--; continue; }
    }
    if (depth === 0) out += ch;
  }
  return out;
}

/** RFC 2045 5.1: type "/" subtype *(";" parameter), parameter values tokens or quoted strings. */
export function parseMediaType(value: string | undefined): MediaType | null {
  if (value === undefined) return null;
  const text = stripComments(value);
  const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*\/\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*/.exec(text);
  if (!m) return null;
  const params = new Map<string, string>();
  let i = m[0].length;
  while (i < text.length) {
    const semi = text.indexOf(';', i);
    if (semi === -1) break;
    i = semi + 1;
    const pm = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*/.exec(text.slice(i));
    if (!pm) continue;
    i += pm[0].length;
    let v = '';
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        v += text[i] ?? '';
        i++;
      }
      i++;
    } else {
      const end = text.slice(i).search(/[;\s]/);
      v = end === -1 ? text.slice(i) : text.slice(i, i + end);
      i += v.length;
    }
    const name = pm[1]!.toLowerCase();
    if (!params.has(name)) params.set(name, v);
  }
  return { type: `${m[1]}/${m[2]}`.toLowerCase(), params };
}

/** RFC 2392 2 / RFC 5322 3.6.4: msg-id is "<" id-left "@" id-right ">"; the id without its angle brackets. */
export function parseContentId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = stripComments(value).trim();
  const m = /^<([^>]*)>$/.exec(v);
  return m ? m[1]! : v;
}

/** RFC 2183 2: the disposition type and its filename parameter (RFC 2231 4 extended values read; continuations are not joined). */
export function parseDisposition(value: string | undefined): { type: string; filename?: string } | null {
  if (value === undefined) return null;
  const mt = parseMediaType(`x/${value.replace(/^\s*([^;\s]+)/, '$1')}`);
  if (!mt) return null;
  const type = mt.type.slice(2);
  // RFC 6266 4.3: filename* (RFC 2231) before filename, whose own octets may be UTF-8 (RFC 6532 3.2).
  const filename = decode2231(mt.params.get('filename*')) ?? utf8OrLatin1(mt.params.get('filename'));
  return filename !== undefined ? { type, filename } : { type };
}

/** Header text is read one octet per character; octets that are well-formed UTF-8 are read as UTF-8. */
function utf8OrLatin1(value: string | undefined): string | undefined {
  if (value === undefined || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  return utf8Strict(Uint8Array.from(value, (c) => c.charCodeAt(0))) ?? value;
}

/** RFC 2231 4: charset'language'percent-encoded; UTF-8 and ASCII read, other charsets as Latin-1. */
function decode2231(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!m) return value;
  const bytes = m[2]!.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  if (/^utf-?8$/i.test(m[1]!)) {
    return utf8Strict(Uint8Array.from(bytes, (c) => c.charCodeAt(0))) ?? bytes;
  }
  return bytes;
}
