// What consumers read one value as, worked out once for every fix the decision tries on it (fix-decision.ts): a
// value with findings is tried with its whole fix and with each finding's own, and its readings do not change.
import { consumerHrefs, fileIdentity } from './readings.js';
import { windowsAgreement } from './windows-reading.js';

/** The readings that name a file a fix may yield (strict, naive decode, WHATWG, Windows path, string join). */
const FILE_READINGS = 5;

/**
 * The readings of `value` against `base` (consumerHrefs), read in `charset`: each href, the file identities they
 * come to, and the Windows path they all agree on. Each is worked out when first asked for.
 */
export class UseReadings {
  private hrefs: ReturnType<typeof consumerHrefs> | undefined;
  /** The file identity of each reading, worked out as a comparison first needs it. */
  private identities: string[] | undefined;
  private windows: string | null | undefined;
  private folder: string | undefined;

  constructor(readonly value: string, readonly base: string | null, private readonly withJoin: boolean, private readonly charset: string) {}

  /**
   * Whether a consumer reads the value as the file `href` (read in the ticket's charset) names: the identity of
   * one of its readings. An href equal to a reading read in the same charset is that reading's file.
   */
  names(href: string): boolean {
    const hrefs = this.allHrefs();
    for (let k = 0; k < FILE_READINGS; k++) if (hrefs[k]!.href === href && hrefs[k]!.charset === this.charset) return true;
    const target = fileIdentity(href, this.charset);
    const identities = (this.identities ??= []);
    for (let k = 0; k < FILE_READINGS; k++) {
      const reading = hrefs[k]!;
      if (reading.href === null) continue;
      if ((identities[k] ??= fileIdentity(reading.href, reading.charset)) === target) return true;
    }
    return false;
  }

  /** The Windows path every reading that names a file names (windowsAgreement), or null. */
  windowsPath(): string | null {
    if (this.windows === undefined) this.windows = windowsAgreement(this.allHrefs());
    return this.windows;
  }

  /** The value's own identity without a trailing "/": the folder a Directory names (read as it is, no base). */
  ownFolder(): string {
    return (this.folder ??= folderIdentity(this.value, this.charset));
  }

  private allHrefs(): ReturnType<typeof consumerHrefs> {
    return (this.hrefs ??= consumerHrefs(this.value, this.base, this.withJoin, this.charset));
  }
}

/** The file identity of `uri` without its trailing "/": the same folder with or without it. */
export const folderIdentity = (uri: string, charset: string): string => fileIdentity(uri, charset).replace(/\/+$/, '');
