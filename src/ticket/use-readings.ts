// What consumers read one value as, worked out once for every fix the decision tries on it (fix-decision.ts).
import { resolveReference } from '../uri/resolve.js';
import { CONSUMER_READINGS, consumerCharset, consumerHref, fileIdentity, FILE_READINGS, IDENTITY, identityParts } from './readings.js';
import { isUtf8 } from './ascii-escapes.js';
import { sameUpToSpaceEscapes } from './space-escapes.js';
import { windowsAgreement, type WindowsReadings } from './windows-reading.js';
import type { Reading } from '../rules/ticket-view.js';

/**
 * The readings of `value` against `base` (readings.ts, consumerHref), read in `charset`: each href, the file
 * identity it comes to, and the Windows path they all agree on. Each is worked out when first asked for, so a fix
 * one of the first readings names costs none of the others.
 */
export class UseReadings implements WindowsReadings {
  /** Each reading's href (null: none), undefined until asked for (room for all made at once). */
  private readonly hrefs = new Array<string | null | undefined>(CONSUMER_READINGS);
  /**
   * The file identity of each reading as its three parts (readings.ts, identityParts), reading k's at 3k, as a
   * comparison first needs it (the table made then too): compared part by part, no identity is joined.
   */
  private identities: Array<string | undefined> | undefined;
  readonly count = CONSUMER_READINGS;
  private windows: string | null | undefined;
  private folder: string | undefined;

  /** `shared`: readings(value, base, withJoin) when the walk has them already (readings-shelf.ts): its strict, WHATWG and join hrefs are these readings'. */
  constructor(readonly value: string, readonly base: string | null, private readonly withJoin: boolean, private readonly charset: string, shared?: readonly Reading[]) {
    if (shared === undefined || base === null) return;
    this.hrefs[0] = shared[0]!.href;
    this.hrefs[2] = shared[2]!.href;
    this.hrefs[4] = withJoin ? shared[3]!.href : null;
  }

  /** Whether a reading (the same href in the same charset, else file identity) names the file `href` names. */
  names(href: string): boolean {
    // The answer is whether any reading names it, so the cheap test (the same href) goes over every reading first:
    // a fix that one of them writes as it is costs no identity. In IDENTITY_ORDER, so that a fix WHATWG or strict
    // RFC 3986 writes as it is (most) costs neither the naive decode nor the Windows path reading.
    for (let i = 0; i < IDENTITY_ORDER.length; i++) {
      const k = IDENTITY_ORDER[i]!;
      if (this.hrefAt(k) === href && consumerCharset(k, this.charset) === this.charset) return true;
    }
    // A fix of a value's backslashes alone (pages/p 1.pdf, file://server/share/p 1.pdf) most often differs from its
    // WHATWG reading only in the spaces WHATWG escapes: the same identity, known without either (space-escapes.ts).
    const whatwg = this.hrefs[2];
    if (typeof whatwg === 'string' && isUtf8(this.charset) && sameUpToSpaceEscapes(href, whatwg)) return true;
    let scheme: string | undefined;
    let host = '';
    let path = '';
    for (let i = 0; i < IDENTITY_ORDER.length; i++) {
      const k = IDENTITY_ORDER[i]!;
      const reading = this.hrefs[k]!;
      if (reading === null) continue;
      if (scheme === undefined) {
        identityParts(href, this.charset);
        scheme = IDENTITY[0];
        host = IDENTITY[1];
        path = IDENTITY[2];
      }
      const at = this.identityAt(k, reading);
      const parts = this.identities!;
      if (parts[at] === scheme && sameHostAndPath(parts[at + 1]!, parts[at + 2]!, host, path)) return true;
    }
    return false;
  }

  /** Where reading `k`'s identity parts are in `identities`, worked out now unless another reading alike (same href and charset) has them. */
  private identityAt(k: number, reading: string): number {
    const charset = consumerCharset(k, this.charset);
    const parts = (this.identities ??= new Array<string | undefined>(3 * FILE_READINGS));
    const at = 3 * k;
    if (parts[at] !== undefined) return at;
    for (let j = 0; j < FILE_READINGS; j++) {
      if (j !== k && parts[3 * j] !== undefined && this.hrefs[j] === reading && consumerCharset(j, this.charset) === charset) {
        parts[at] = parts[3 * j];
        parts[at + 1] = parts[3 * j + 1];
        parts[at + 2] = parts[3 * j + 2];
        return at;
      }
    }
    identityParts(reading, charset);
    parts[at] = IDENTITY[0];
    parts[at + 1] = IDENTITY[1];
    parts[at + 2] = IDENTITY[2];
    return at;
  }

  /** The Windows path every reading that names a file names (windowsAgreement), or null. */
  windowsPath(): string | null {
    if (this.windows === undefined) this.windows = windowsAgreement(this);
    return this.windows;
  }

  /** The value's own identity without a trailing "/": the folder a Directory names (read as it is, no base). */
  ownFolder(): string {
    return (this.folder ??= folderIdentity(this.value, this.charset));
  }

  /** Reading `k`'s charset (WindowsReadings). */
  charsetOf(k: number): string {
    return consumerCharset(k, this.charset);
  }

  /** Reading `k`'s href (WindowsReadings). */
  hrefOf(k: number): string | null {
    return this.hrefAt(k);
  }

  private hrefAt(k: number): string | null {
    let href = this.hrefs[k];
    if (href === undefined) {
      const strict = (this.hrefs[0] ??= this.base !== null ? resolveReference(this.value, this.base) : this.value);
      this.hrefs[k] = href = consumerHref(k, this.value, this.base, this.withJoin, strict);
    }
    return href;
  }
}

/**
 * The order in which names() compares hrefs, then identities (any order gives its answer): WHATWG first, the
 * reading that most often names a broken value's fix (a backslash read as "/", a raw space escaped), then strict
 * RFC 3986 (the fix of a raw space alone), then the rest.
 */
const IDENTITY_ORDER = [2, 0, 1, 3, 4] as const;

/**
 * Whether host + path is the same text as otherHost + otherPath (the rest of two identities after their scheme and
 * "://"): most often both hosts are the same, and the paths alone decide.
 */
const sameHostAndPath = (host: string, path: string, otherHost: string, otherPath: string): boolean =>
  host === otherHost ? path === otherPath : host.length + path.length === otherHost.length + otherPath.length && host + path === otherHost + otherPath;

/** The file identity of `uri` without its trailing "/": the same folder with or without it. */
export const folderIdentity = (uri: string, charset: string): string => fileIdentity(uri, charset).replace(/\/+$/, '');
