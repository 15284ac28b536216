import type { AuthorityParts, UriComponents } from '../uri/components.js';
import type { ResolutionTrace } from '../uri/resolve.js';
import type { RuleCode } from './codes.js';
import type { UrlFacts } from './facts.js';

export type Severity = 'error' | 'warning' | 'info';
/** `jdf`: the JDF file-URL appendix (default). `rfc8089`: RFC 8089 section 2. `lenient`: RFC 8089 appendices E and F accepted as warnings. */
export type Profile = 'jdf' | 'rfc8089' | 'lenient';
/** The platform of the consumer that will open the file; some meanings depend on it (appendix Table 4, example 26). */
export type Platform = 'any' | 'windows' | 'mac' | 'unix';
export type ReferenceKind = 'absolute' | 'network-path' | 'absolute-path' | 'relative-path';
export type Role = 'url' | 'directory';

export const PROFILES: readonly Profile[] = ['jdf', 'rfc8089', 'lenient'];
export const PLATFORMS: readonly Platform[] = ['any', 'windows', 'mac', 'unix'];

// The default size limit of one ticket (--max-bytes; a package's ticket part too): half of what one string holds
// (0x1fffffe8 characters), so decoding, the element table and the report fit. Below the ticket and package layers.
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** What a finding says beyond its code: the values its sentence is made from (strings masked, never a password). */
export type FindingArgs = Record<string, string | number>;

export interface Finding {
  /** Stable rule code, e.g. `unescaped-space`: one of the catalog's (a misspelled code does not compile). */
  code: RuleCode;
  severity: Severity;
  /** One sentence: what is wrong and how to fix it, made from `code` and `args` (src/rules/finding.ts). Never holds a password. */
  message: string;
  /**
   * The values the message is made from, by name (each rule's `message` says which). Every finding made by
   * createFinding has them; optional only until the ticket walker builds its findings with createFinding too.
   */
  args?: FindingArgs;
  /** The spec section the rule comes from. */
  spec?: string;
  /** The whole value with this one problem corrected, where that is safe. */
  fix?: string;
  /**
   * Where the value has more than one plausible meaning: each correction a person may choose (ESLint's
   * `suggestions`), never applied by `fix`. A finding with suggestions has no `fix`.
   */
  suggestions?: Suggestion[];
  /** Where in the value the problem starts (0-based UTF-16 index). */
  offset?: number;
}

/** One correction of a value with several plausible meanings: what it takes the value to mean, and the whole value so corrected. */
export interface Suggestion {
  desc: string;
  fix: string;
}

export interface RuleExample {
  value: string;
  options?: { base?: string; profile?: Profile; platform?: Platform; role?: Role; jdfVersion?: string; charset?: string };
  /** A flagged URL example: where the finding starts in the value (0-based UTF-16 index), as the tests check it. */
  offset?: number;
  /** A flagged example of a fixable URL rule: its finding's fix, or null where this case has none (the tests check it). */
  fix?: string | null;
  /** A flagged example with two plausible meanings: the values its suggestions give, in order (the tests check them). */
  suggestions?: readonly string[];
}

export interface RuleMeta {
  code: RuleCode;
  /**
   * `url`: found by checkUrl in one value; `ticket`: found by validateTicket in a whole ticket (examples are
   * ticket texts); `files`: found by looking at the file system (validate --check-exists, --root; examples are prose);
   * `package`: found by validatePackage in a MIME or zip package (examples are MIME packages, or prose for zips).
   */
  scope?: 'url' | 'ticket' | 'files' | 'package';
  /** A few words, for lists and SARIF `shortDescription`. */
  title: string;
  /** Why it matters, for docs/rules.md. */
  description: string;
  spec: string;
  /** Severity under each profile; `null`: not reported under that profile. Some rules adjust for platform or JDF version, as their description says. */
  severity: Record<Profile, Severity | null>;
  fixable: boolean;
  /** Values this rule flags and values it must not flag: the docs show them and the tests check them. */
  examples: { flagged: RuleExample[]; clean: RuleExample[] };
}

/** One span of a value replaced: value.slice(0, start) + text + value.slice(end). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** What a rule says it found; the sentence is made from `args` in one place (the rule's `message`). */
export interface Report {
  offset?: number;
  fix?: string;
  /** Instead of a fix, where the value has several plausible meanings (Finding.suggestions). */
  suggestions?: Suggestion[];
  /** The fix as the one span of the value it replaces, where the rule knows it: clean fixes are composed from it. */
  edit?: Edit;
  args?: FindingArgs;
  /** Overrides the profile's severity (platform- or version-dependent rules); `null` drops the report. */
  severity?: Severity | null;
}

export interface CheckOptions {
  /** Base URI for resolution (RunList/@Directory, or the ticket's folder). */
  base?: string;
  profile?: Profile;
  platform?: Platform;
  /** JDF version of the ticket ("1.2", "1.3", ...): raw non-ASCII is an error up to 1.2 and allowed as an IRI from 1.3. */
  jdfVersion?: string;
  role?: Role;
  /** Charset of escaped octets: the ticket's declared encoding (appendix section 3). Default UTF-8. */
  charset?: string;
  /** Resolve with RFC 8089 E.2.1 (never climb above a drive letter) instead of strict RFC 3986. */
  drivePreserving?: boolean;
  /** Host names that resolve to this machine, so file URLs naming them are local (RFC 8089 section 3). */
  localHosts?: readonly string[];
}

/**
 * Everything a URL rule may look at: the value, its parse, the facts of one scan of it, and the options. Built
 * once per check by checkUrl. Rules read what they need from here rather than scanning the value again.
 */
export interface CheckContext {
  /** The value as given. */
  value: string;
  /** The value without leading and trailing white space; rules read this one. */
  core: string;
  /** Index of `core` in `value`. */
  lead: number;
  ref: UriComponents;
  /** What one scan of `core` found (src/rules/facts.ts): which kinds of character, where, how many. */
  facts: UrlFacts;
  /** Lower-case scheme, if any. */
  scheme: string | undefined;
  kind: ReferenceKind;
  /** A file: URL, or a reference without a scheme (which JDF resolves against a file: base). */
  isFileLike: boolean;
  authority: AuthorityParts | undefined;
  /** Offsets of the components in `value`. */
  pathStart: number;
  authorityStart: number;
  profile: Profile;
  platform: Platform;
  role: Role;
  options: CheckOptions;
  /** Strict resolution against options.base, when there is one and the value could be resolved. */
  resolution?: { href: string; trace: ResolutionTrace };
  /** Rebuilds the whole value from a corrected core, keeping the surrounding white space. */
  withCore(core: string): string;
}

/** What every rule of the catalog has, whatever its scope: its meta, and the words of its findings. */
export interface CatalogRule {
  meta: RuleMeta;
  /** The sentence of a finding, from its (masked) arguments; only createFinding and messageOf call it. */
  message(args: FindingArgs): string;
}

/**
 * A URL rule (scope `url`): its whole logic is its check, which sees one parsed value and reports what it
 * finds. Rules of the other scopes are catalog entries (CatalogRule): the ticket walker, the file checks and the
 * package readers find theirs and build the findings with createFinding.
 */
export interface Rule extends CatalogRule {
  check(ctx: CheckContext, report: (report: Report) => void): void;
  /**
   * The signs (src/rules/signs.ts) without which the rule cannot report, any one of them enough: checkUrl calls it
   * only for a value that shows one. Absent: always called.
   */
  when?: number;
  /**
   * The rule's fix only escapes characters, so it brings no error the value did not have (short of making it
   * longer than the schemas allow): checkUrl need not check the fixed value again. The tests hold every rule
   * that says so to it, on its examples and on random strings.
   */
  cleanFix?: true;
}
