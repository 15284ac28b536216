// The one place where src/ticket makes a finding from a rule's code and the arguments of its message: through
// the catalog's one builder (rules/finding.ts), which keeps the args and makes the words.
import { rulesByCode } from '../rules/catalog.js';
import type { RuleCode } from '../rules/codes.js';
import { createFinding, placedFinding, restateFinding } from '../rules/finding.js';
import type { Finding, FindingArgs, Profile, Severity } from '../rules/types.js';
import type { LineIndex } from './positions.js';
import type { LocatedFinding } from './validate.js';

interface Position {
  line: number;
  column: number;
}

/**
 * A finding of rule `code` at `at`: the profile's severity, the rule's sentence from `args`, secrets masked. A
 * ticket reports what it finds under every profile: a rule the profile would not report is an error here.
 */
export function makeFinding(code: RuleCode, profile: Profile, args: Record<string, string | number>, at: Position): LocatedFinding {
  const severity = rulesByCode.get(code)?.meta.severity[profile] ?? 'error';
  return createFinding(code, args, { profile, severity, at });
}

/** makeFinding's finding without its place, to be placed at each reference that has it (`placed`). */
export function unplacedFinding(code: RuleCode, profile: Profile, args: Record<string, string | number>): Finding {
  const severity = rulesByCode.get(code)?.meta.severity[profile] ?? 'error';
  return createFinding(code, args, { profile, severity });
}

/**
 * A finding of a value at one place: a new object (each place has its own; a ticket rule may reword it) that
 * shares its arguments and fix with the finding of the value, or `words`' arguments when given (SharedWords). Its
 * sentence is made when read (rules/finding.ts). Object spread ({ ...finding, line, column }) took about 2 us a
 * finding on Node 20; this is a constructor and four stores.
 */
export function placed(finding: Finding, at: Position, words: Words | undefined = undefined): LocatedFinding {
  const args = words?.args ?? finding.args;
  if (args === undefined || finding.spec === undefined) return { ...finding, line: at.line, column: at.column }; // not createFinding's: as it is
  return placedFinding(finding, args, at);
}

/** A finding's arguments, shared by the findings of a ticket that say the same. */
interface Words {
  args: FindingArgs;
}

/** Equal arguments kept per ticket: no more than this many (then the table starts again). */
const MAX_WORDS = 1024;
/** Arguments with a longer value are not shared (a value's own readings: no other finding has them). */
const MAX_SHARED_VALUE = 128;
/** A code whose arguments were new this many times in a row is not tried again (they name each value: the resolution of each). */
const MAX_MISSES = 256;

/**
 * One arguments object for the findings of a ticket with the same code and arguments (a hundred thousand raw
 * spaces say the same thing); the sentence is made from the code and the arguments when read.
 */
export class SharedWords {
  private readonly table = new Map<string, Words>();
  /** The codes whose arguments held a value too long to share (a consumers-disagree's readings), or were new MAX_MISSES times in a row: not tried again. */
  private readonly unshared = new Set<string>();
  /** For each code, how many of its findings in a row had arguments not seen before. */
  private readonly misses = new Map<string, number>();
  /** For each code, the arguments object of its last finding and the words found for it. */
  private readonly last = new Map<string, { from: FindingArgs; words: Words }>();

  of(finding: Finding): Words | undefined {
    const args = finding.args;
    if (args === undefined) return undefined;
    // createFinding gives findings with the same arguments as the last of their code the same object.
    const last = this.last.get(finding.code);
    if (last !== undefined && last.from === args) return last.words;
    if (this.unshared.has(finding.code)) return undefined;
    const words = this.lookUp(finding, args);
    if (words !== undefined) this.last.set(finding.code, { from: args, words });
    return words;
  }

  private lookUp(finding: Finding, args: FindingArgs): Words | undefined {
    let key = finding.code;
    for (const name in args) {
      const v = args[name]!;
      if (typeof v === 'string' && v.length > MAX_SHARED_VALUE) {
        this.unshared.add(finding.code);
        return undefined;
      }
      // Each name and value with its length: no two different lists make one key.
      key += typeof v === 'number' ? ` ${name.length}:${name}#${v}` : ` ${name.length}:${name}'${v.length}:${v}`;
    }
    let words = this.table.get(key);
    if (words === undefined) {
      const missed = (this.misses.get(finding.code) ?? 0) + 1;
      this.misses.set(finding.code, missed);
      if (missed >= MAX_MISSES) this.unshared.add(finding.code);
      if (this.table.size >= MAX_WORDS) this.table.clear();
      words = { args };
      this.table.set(key, words);
    } else {
      this.misses.set(finding.code, 0);
    }
    return words;
  }
}

/**
 * A finding of checkUrl's that the ticket shows in another light (a vendor's scheme in a route, a Directory no
 * reference uses): the same place and fix, another severity, the rule's sentence from new `args`.
 */
export function reword(finding: LocatedFinding, severity: Severity, args: Record<string, string | number>): void {
  restateFinding(finding, args, severity);
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** Errors first, then warnings, then info; each in the order of the text. */
export const bySeverityThenPlace = (a: LocatedFinding, b: LocatedFinding): number =>
  SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.line - b.line || a.column - b.column;

/** Findings about the file itself, placed by their offset in its text. */
export class FileFindings {
  constructor(
    private readonly into: LocatedFinding[],
    readonly profile: Profile,
    readonly lines: LineIndex,
  ) {}

  /** Adds a finding of rule `code` where `offset` stands in the text. */
  add(code: RuleCode, offset: number, args: Record<string, string | number> = {}): void {
    this.into.push(makeFinding(code, this.profile, args, this.lines.position(offset)));
  }

  /** Adds a finding at a line and column someone else counted (the full validator). */
  addAt(code: RuleCode, at: Position, args: Record<string, string | number>): void {
    this.into.push(makeFinding(code, this.profile, args, at));
  }
}
