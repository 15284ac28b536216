// The WHATWG URL reading of a value (what browsers and Node's `new URL(value, base).href` give), written out
// without the parser for three common shapes of broken references (a Windows path, a relative path with "\" or
// spaces, a UNC path), where it is a string of the value's own: the readings of every such value (readings.ts,
// use-readings.ts) otherwise cost a parse each. Any other value is parsed. The tests hold the two equal.
import { boundedMemo } from '../util/bounded-memo.js';
import { slashedAndEscaped } from '../util/slashed.js';

/** `new URL(value, base).href`, or null where the parser fails (an invalid base fails whatever the value). */
export function whatwgHref(value: string, base: string): string | null {
  const known = whatwgShortcut(value, base);
  if (known !== undefined) return known;
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/**
 * The href for a value of one of the shapes below under a base the parser takes, or undefined (parse it). Each
 * shape holds no character the basic URL parser strips, drops, encodes or reads as a delimiter but for those said.
 */
export function whatwgShortcut(value: string, base: string): string | undefined {
  const facts = baseFacts(base);
  if (facts === null) return undefined;
  const opaque = OPAQUE.exec(value);
  if (opaque !== null) return SPECIAL.test(opaque[1]!) ? undefined : opaque[1]!.toLowerCase() + value.slice(opaque[1]!.length);
  if (facts.filePrefix === undefined) return undefined;
  const unc = UNC.exec(value);
  if (unc !== null) return isPlainHost(unc[1]!) ? `file://${unc[1]!.toLowerCase()}/${slashedAndEscaped(unc[2]!)}` : undefined;
  return RELATIVE.test(value) ? facts.filePrefix + slashedAndEscaped(value) : undefined;
}

// A scheme (WHATWG URL 4.4, scheme state) followed by anything but "/": for a non-special one, the opaque path
// state, which keeps printable ASCII (0x21-0x7E) as it is but "?" and "#"; the scheme is lowercased.
const OPAQUE = /^([A-Za-z][A-Za-z0-9+.-]*):(?!\/)[\x21\x22\x24-\x3e\x40-\x7e]+$/;
/** The special schemes (WHATWG URL 4.1), whose "\" is a separator and whose paths are hierarchical. */
const SPECIAL = /^(?:file|ftp|https?|wss?)$/i;

// Names of characters the path state keeps as they are, and spaces (written "%20"), between "/" or "\" (both a
// separator in a special URL): no "%" (no escape to read), no ":" or "|" (a Windows drive letter's quirks), no
// segment starting with "." (no dot segment), no space at either end (stripped before parsing).
const NAME = "[A-Za-z0-9_~!$&'()*+,;=@-][A-Za-z0-9_~!$&'()*+,;=@ .-]*";
const MORE_NAMES = `(?:[\\\\/](?:${NAME})?)*(?<! )`;
const RELATIVE = new RegExp(`^${NAME}${MORE_NAMES}$`);
// "\\server\share\..." or "//server/share/...", both separators mixed: the file host state, then the path state.
const UNC = new RegExp(`^[\\\\/]{2}([^\\\\/]*)[\\\\/]((?:${NAME})?${MORE_NAMES})$`);

/**
 * A host the host parser (WHATWG URL 3.5) only lowercases: ASCII letters, digits and "-", starting with a letter
 * (so no IPv4 number), no Punycode label ("xn--", which domain to ASCII checks), not "localhost" (which becomes
 * the empty host).
 */
function isPlainHost(host: string): boolean {
  return /^[A-Za-z][A-Za-z0-9-]*$/.test(host) && !/^xn--/i.test(host) && host.toLowerCase() !== 'localhost';
}

interface BaseFacts {
  /**
   * For a file base: what a relative path's href starts with (the file state takes the base's host and its path
   * less the last name), checked on probes of each kind of character a RELATIVE value holds.
   */
  filePrefix: string | undefined;
}

const PROBES: ReadonlyArray<[name: string, path: string]> = [['x', 'x'], ["a\\b c/d~_-!$&'()*+,;=@.e", "a/b%20c/d~_-!$&'()*+,;=@.e"], ['a\\\\b//', 'a//b//']];

/** What a base gives every value of the shapes above; null where the parser fails on it (no shortcut then). */
const baseFacts = boundedMemo((base: string): BaseFacts | null => {
  try {
    if (!new URL(base).href.startsWith('file:')) return { filePrefix: undefined };
    const prefix = new URL('x', base).href.slice(0, -1);
    return { filePrefix: PROBES.every(([name, path]) => new URL(name, base).href === prefix + path) ? prefix : undefined };
  } catch {
    return null;
  }
});
