// A UNC path with its backslashes written "/" (//server/share/p 1.pdf): the value consumersDisagree reads a second
// time for every \\server\share\... reference (rules/ticket.ts), to learn whether the backslashes are the only cause.
// Its readings agree under a file base of the kind below, so the four resolutions and their identities are skipped.
import type { Reading } from '../rules/ticket-view.js';
import { boundedMemo } from '../util/bounded-memo.js';
import { whatwgShortcut } from './whatwg-reading.js';

// A host the readings all take as it is, up to case: ASCII letters, digits and "-", starting with a letter (no IPv4
// number, no Windows drive letter), then names of characters no reading escapes, decodes or reads as a delimiter
// but the space (WHATWG writes it %20, which the file identity decodes again), none empty or starting with "." or a
// space (no dot segment), no space at the end (WHATWG strips it), no ":" (a scheme, JDFLibJ's test for one).
const NAME = "[A-Za-z0-9_~!*'()+,&=-][A-Za-z0-9_~!*'()+,&=. -]*";
const NETWORK_PATH = new RegExp(`^//(?!xn--|localhost/)[A-Za-z][A-Za-z0-9-]*(?:/${NAME})+$(?<! )`, 'i');

/**
 * Probes of each kind of character a NETWORK_PATH holds, the host in both cases: a base agrees on them all only where
 * each reading is what RFC 3986 5.2.2 says of a reference with an authority (the base's scheme, the reference's
 * authority and path).
 */
const PROBES = ['//h/x', "//Ab-9/a b/c d~_!*'()+,&=-.e/f.", '//SRV/Share/p 0000002.pdf'] as const;

/** A base whose string join keeps only its scheme: java.net.URI parses it (no space, backslash and the like). */
const JAVA_PARSES = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\\"<>{}|^`\u0000-\u001f]*$/;

type Slow = (value: string, base: string, withJoin: boolean) => Reading[] | null;

/**
 * Whether `value` is a NETWORK_PATH that every consumer reads as the same file against `base`, known without
 * reading it: the base is a file URL (WHATWG's file host state: "file://" + the host lowercased + the path, spaces
 * escaped; whatwg-reading.ts), whose string join keeps only its scheme (so "file://" + the value's host and path,
 * as strict RFC 3986 5.2.2 and RFC 8089 E.2.1 resolve it), and the probes agree under it (`slow`, disagreement).
 * The file identities then differ only in the host's case, which they fold, and in the %20 WHATWG writes for a space,
 * which they decode. The tests hold this to disagreement on generated values, bases and near misses.
 */
export function agreesAsNetworkPath(value: string, base: string, withJoin: boolean, slow: Slow): boolean {
  return NETWORK_PATH.test(value) && agreeingBases[withJoin ? 1 : 0]!(base)!(slow);
}

const agreeingBases = [false, true].map((withJoin) =>
  boundedMemo((base: string) => {
    let answer: boolean | undefined;
    return (slow: Slow): boolean => (answer ??= agrees(base, withJoin, slow));
  }),
);

function agrees(base: string, withJoin: boolean, slow: Slow): boolean {
  if (!/^file:/i.test(base) || !JAVA_PARSES.test(base)) return false;
  return PROBES.every((probe) => whatwgShortcut(probe, base) !== undefined && slow(probe, base, withJoin) === null);
}
