import { isDigit, isHexDigit, isSubDelim, isUnreserved } from '../uri/chars.js';
import { isTripletAt } from '../escape/percent.js';

export type HostType = 'empty' | 'localhost' | 'ipv4' | 'ipv6' | 'ipvfuture' | 'reg-name' | 'invalid';

// RFC 3986 3.2.2: dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
function isDecOctet(s: string): boolean {
  if (s.length === 0 || s.length > 3) return false;
  for (let i = 0; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  if (s.length > 1 && s[0] === '0') return false;
  return Number(s) <= 255;
}

// RFC 3986 3.2.2: IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
export function isIPv4Address(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every(isDecOctet);
}

function isH16(s: string): boolean {
  if (s.length === 0 || s.length > 4) return false;
  for (let i = 0; i < s.length; i++) if (!isHexDigit(s.charCodeAt(i))) return false;
  return true;
}

// RFC 3986 3.2.2: IPv6address, the nine forms written as "at most eight 16-bit pieces, one '::', an optional
// IPv4 tail worth two pieces".
export function isIPv6Address(s: string): boolean {
  const doubleColon = s.indexOf('::');
  if (doubleColon !== -1 && s.indexOf('::', doubleColon + 1) !== -1) return false;
  const countPieces = (part: string, allowIPv4Tail: boolean): number => {
    if (part === '') return 0;
    const pieces = part.split(':');
    let count = 0;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (allowIPv4Tail && i === pieces.length - 1 && piece.indexOf('.') !== -1) {
        if (!isIPv4Address(piece)) return -1;
        count += 2;
      } else if (isH16(piece)) {
        count += 1;
      } else {
        return -1;
      }
    }
    return count;
  };
  if (doubleColon === -1) return countPieces(s, true) === 8;
  const head = countPieces(s.slice(0, doubleColon), false);
  const tail = countPieces(s.slice(doubleColon + 2), true);
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

// RFC 3986 3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
function isIPvFuture(s: string): boolean {
  if (s[0] !== 'v' && s[0] !== 'V') return false;
  const dot = s.indexOf('.');
  if (dot < 2 || dot === s.length - 1) return false;
  for (let i = 1; i < dot; i++) if (!isHexDigit(s.charCodeAt(i))) return false;
  for (let i = dot + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(isUnreserved(c) || isSubDelim(c) || c === 0x3a)) return false;
  }
  return true;
}

// RFC 3986 3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims )
export function isRegName(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isTripletAt(s, i)) { i += 2; continue; }
    if (!(isUnreserved(c) || isSubDelim(c))) return false;
  }
  return true;
}

/** RFC 3986 3.2.2, with RFC 8089 section 2's "localhost" and RFC 6874's zone identifier ("%25" ZoneID). */
export function classifyHost(host: string): HostType {
  if (host === '') return 'empty';
  if (host.toLowerCase() === 'localhost') return 'localhost';
  if (host.startsWith('[') && host.endsWith(']')) {
    const literal = host.slice(1, -1);
    const zone = literal.indexOf('%25');
    const address = zone === -1 ? literal : literal.slice(0, zone);
    if (isIPv6Address(address)) return 'ipv6';
    if (zone === -1 && isIPvFuture(literal)) return 'ipvfuture';
    return 'invalid';
  }
  if (isIPv4Address(host)) return 'ipv4';
  return isRegName(host) ? 'reg-name' : 'invalid';
}
