// What consumers read one value as, worked out once for every fix the decision tries on it (fix-decision.ts).
import { resolveReference } from '../uri/resolve.js';
import { CONSUMER_READINGS, consumerCharset, consumerHref, fileIdentity, FILE_READINGS } from './readings.js';
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
  /** The file identity of each reading, as a comparison first needs it (the table made then too). */
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
    // a fix that one of them writes as it is costs no identity.
    for (let k = 0; k < FILE_READINGS; k++) if (this.hrefAt(k) === href && consumerCharset(k, this.charset) === this.charset) return true;
    let target: string | undefined;
    for (let i = 0; i < IDENTITY_ORDER.length; i++) {
      const k = IDENTITY_ORDER[i]!;
      const reading = this.hrefs[k]!;
      if (reading === null) continue;
      target ??= fileIdentity(href, this.charset);
      if (this.identityAt(k, reading) === target) return true;
    }
    return false;
  }

  /** Reading `k`'s identity, or that of another one alike (same href and charset) already worked out. */
  private identityAt(k: number, reading: string): string {
    const charset = consumerCharset(k, this.charset);
    const identities = (this.identities ??= new Array<string | undefined>(FILE_READINGS));
    for (let j = 0; j < FILE_READINGS && identities[k] === undefined; j++) {
      if (j !== k && identities[j] !== undefined && this.hrefs[j] === reading && consumerCharset(j, this.charset) === charset) identities[k] = identities[j];
    }
    return (identities[k] ??= fileIdentity(reading, charset));
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
 * The order in which names() compares identities (any order gives its answer): WHATWG first, the reading that
 * most often names a broken value's fix (a backslash read as "/", a raw space escaped), then strict RFC 3986 (the
 * fix of a raw space alone), then the rest.
 */
const IDENTITY_ORDER = [2, 0, 1, 3, 4] as const;

/** The file identity of `uri` without its trailing "/": the same folder with or without it. */
export const folderIdentity = (uri: string, charset: string): string => fileIdentity(uri, charset).replace(/\/+$/, '');
