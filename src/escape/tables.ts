// The JDF file-URL appendix, section 3 and Table 1.

/** Table 1: characters that MUST be escaped in a path segment, with their escaped form. */
export const MUST_ESCAPE: ReadonlyMap<string, string> = new Map([
  [' ', '%20'], ['<', '%3C'], ['>', '%3E'], ['"', '%22'], ['#', '%23'], ['%', '%25'],
  ['{', '%7B'], ['}', '%7D'], ['|', '%7C'], ['\\', '%5C'], ['^', '%5E'], ['[', '%5B'],
  [']', '%5D'], ['`', '%60'], [';', '%3B'], ['/', '%2F'], ['?', '%3F'],
]);

/** Section 2.1 fsegment and section 3: the special characters that may appear unescaped in a path segment. */
export const SAFE_SPECIALS = "-_.!*'()~+,$:@&=";

const SEGMENT_CHAR = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) SEGMENT_CHAR[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) SEGMENT_CHAR[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) SEGMENT_CHAR[c] = 1;
for (const ch of SAFE_SPECIALS) SEGMENT_CHAR[ch.charCodeAt(0)] = 1;

/** Section 2.1: may the ASCII code point appear unescaped in an fsegment? */
export function isSegmentChar(c: number): boolean {
  return c < 128 && SEGMENT_CHAR[c] === 1;
}

/** Section 3: octets 00-1F and 7F are control characters and must be encoded. */
export function isControl(c: number): boolean {
  return c <= 0x1f || c === 0x7f;
}
