// @exodus/bytes/whatwg.js for whatwg-url in the worker: percent-encode after encoding, UTF-8 only (the URL class
// always parses as UTF-8; the legacy encodings' tables are left out of the page).
const encoder = new TextEncoder();
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** URL Standard 1.3: percent-encode `input` as UTF-8, C0 controls and non-ASCII always, `set` (ASCII) too. */
export function percentEncodeAfterEncoding(encoding: string, input: string, set: string, spaceAsPlus = false): string {
  if (encoding.toLowerCase() !== 'utf-8') throw new RangeError(`only UTF-8 in the page, not ${encoding}`);
  let out = '';
  for (const b of encoder.encode(input)) {
    if (spaceAsPlus && b === 0x20) out += '+';
    else if (b < 0x20 || b > 0x7e || set.includes(String.fromCharCode(b))) out += hex(b);
    else out += String.fromCharCode(b);
  }
  return out;
}
