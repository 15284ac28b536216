// What consumers read one value as, worked out once for every fix the decision tries on it (fix-decision.ts): a
// value with findings is tried with its whole fix and with each finding's own, and its readings do not change.
import { resolveReference } from '../uri/resolve.js';
import { CONSUMER_READINGS, consumerCharset, consumerHref, fileIdentity, FILE_READINGS } from './readings.js';
import { windowsAgreement } from './windows-reading.js';

/**
 * The readings of `value` against `base` (readings.ts, consumerHref), read in `charset`: each href, the file
 * identity it comes to, and the Windows path they all agree on. Each is worked out when first asked for, so a fix
 * one of the first readings names costs none of the others.
 */
export class UseReadings {
  /** Each reading's href (null: none), undefined until asked for. */
  private readonly hrefs: Array<string | null | undefined> = [];
  /** The file identity of each reading, worked out as a comparison first needs it. */
  private readonly identities: Array<string | undefined> = [];
  private windows: string | null | undefined;
  private folder: string | undefined;

  constructor(readonly value: string, readonly base: string | null, private readonly withJoin: boolean, private readonly charset: string) {}

  /**
   * Whether a consumer reads the value as the file `href` (read in the ticket's charset) names: the identity of
   * one of its readings. An href equal to a reading read in the same charset is that reading's file: the readings
   * an earlier fix worked out are looked at first, as they cost no identity; each is worked out only when a
   * comparison reaches it.
   */
  names(href: string): boolean {
    for (let k = 0; k < FILE_READINGS; k++) if (this.hrefs[k] === href && this.inOwnCharset(k)) return true;
    let target: string | undefined;
    for (let k = 0; k < FILE_READINGS; k++) {
      const reading = this.hrefAt(k);
      if (reading === null) continue;
      if (reading === href && this.inOwnCharset(k)) return true;
      target ??= fileIdentity(href, this.charset);
      if (this.identityAt(k, reading) === target) return true;
    }
    return false;
  }

  /**
   * The file identity of reading `k` (its href, `reading`): that of an earlier reading written alike in the same
   * charset (a strict reading the string join or the naive decode leaves as it is), or worked out.
   */
  private identityAt(k: number, reading: string): string {
    let identity = this.identities[k];
    if (identity !== undefined) return identity;
    for (let j = 0; j < k && identity === undefined; j++) {
      if (this.hrefs[j] === reading && this.sameCharset(j, k)) identity = this.identities[j];
    }
    return (this.identities[k] = identity ?? fileIdentity(reading, consumerCharset(k, this.charset)));
  }

  /** Whether reading `k`'s escapes are read in the ticket's charset (a label names its charset in any case). */
  private inOwnCharset(k: number): boolean {
    return consumerCharset(k, this.charset).toLowerCase() === this.charset.toLowerCase();
  }

  /** Whether readings `j` and `k` read their escapes in the same charset. */
  private sameCharset(j: number, k: number): boolean {
    return consumerCharset(j, this.charset).toLowerCase() === consumerCharset(k, this.charset).toLowerCase();
  }

  /** The Windows path every reading that names a file names (windowsAgreement), or null. */
  windowsPath(): string | null {
    if (this.windows === undefined) {
      const all = [];
      for (let k = 0; k < CONSUMER_READINGS; k++) all.push({ href: this.hrefAt(k), charset: consumerCharset(k, this.charset) });
      this.windows = windowsAgreement(all);
    }
    return this.windows;
  }

  /** The value's own identity without a trailing "/": the folder a Directory names (read as it is, no base). */
  ownFolder(): string {
    return (this.folder ??= folderIdentity(this.value, this.charset));
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

/** The file identity of `uri` without its trailing "/": the same folder with or without it. */
export const folderIdentity = (uri: string, charset: string): string => fileIdentity(uri, charset).replace(/\/+$/, '');
