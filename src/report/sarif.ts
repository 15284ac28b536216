// SARIF 2.1.0 (OASIS), for code-scanning UIs: one run, the rule catalog as the driver's rules, one result per finding.
import { holdsPassword } from '../fileurl/redact.js';
import type { RuleMeta, Severity } from '../rules/types.js';
import type { SuppressedFinding, Suppression } from '../ticket/silence.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import { KeyCounts } from './key-counts.js';
import { jsonPieces, LazyArray } from './json-pieces.js';
import type { ValidationReport } from './report.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export interface SarifOptions {
  /** The URL of docs/rules.md: each rule's helpUri is its section there (URL#code). */
  docsUrl?: string;
  /**
   * The file: URI of the working folder, ending in '/': tickets under it are named relative to %SRCROOT%. The
   * folder itself is not written: a code-scanning service resolves %SRCROOT% against its own checkout.
   */
  srcRoot?: string;
  /** The tool's home page, for tool.driver.informationUri. */
  informationUri?: string;
  /** Paths that could not be read, for the invocation's notifications. */
  unreadable?: ReadonlyArray<{ path: string; reason: string }>;
}

/** Where a file is: relative to %SRCROOT% when it is under it (SARIF 3.4.4), else its own URI. */
function artifactLocation(path: string, documentUri: string | undefined, srcRoot: string | undefined): { uri: string; uriBaseId?: string } {
  if (path === '-' && documentUri === undefined) return { uri: 'stdin' };
  if (documentUri !== undefined && srcRoot !== undefined && documentUri.startsWith(srcRoot)) return { uri: documentUri.slice(srcRoot.length), uriBaseId: '%SRCROOT%' };
  return { uri: documentUri ?? path.split('\\').join('/').split('/').map(encodeURIComponent).join('/') };
}

/** Where a finding is: from its start to the end of the value it is in, when it is in one (SARIF 3.30). */
function region(f: LocatedFinding, ref: TicketReference | undefined): Record<string, number> {
  const inValue = ref !== undefined && (f.line < ref.endLine || (f.line === ref.endLine && f.column <= ref.endColumn));
  return inValue ? { startLine: f.line, startColumn: f.column, endLine: ref!.endLine, endColumn: ref!.endColumn } : { startLine: f.line, startColumn: f.column };
}

/** FNV-1a (32-bit) of `text` from `seed`. */
function fnv(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** FNV-1a (32-bit) twice, with two offsets: a stable 16-hex-digit key, the same wherever it runs. */
function fingerprint(text: string): string {
  return fnv(text, 0x811c9dc5).toString(16).padStart(8, '0') + fnv(text, 0x050c5d1f).toString(16).padStart(8, '0');
}

/**
 * A 53-bit number for a key (both FNV-1a's, one shortened): a million findings' keys counted as numbers take a
 * fifth of the memory of the strings. Two keys share one about once in 2^53 pairs (a few in ten thousand files of
 * four million findings): then the second's occurrence counts the first's too.
 */
const keyNumber = (text: string): number => fnv(text, 0x811c9dc5) * 2 ** 21 + (fnv(text, 0x050c5d1f) >>> 11);

/** A message without the positions some hold (`line 3, col 5`, `3:5`): lines above it may move. */
const withoutPositions = (text: string): string => text.replace(/\b(line|col(umn)?)\s*\d+|\d+:\d+/gi, '$1');

/**
 * What identifies a finding, never its line (SARIF 3.27.17): the rule, the file, the package part, and the
 * element's path, attribute and value (else the message); `seen` counts equal keys, so equal findings differ.
 */
function findingKey(f: LocatedFinding, ref: TicketReference | undefined, file: string, part: string, seen: KeyCounts): string {
  const key = [f.code, file, part, ref ? `${ref.element}/@${ref.attribute}=${ref.value}` : withoutPositions(f.message)].join('\u0000');
  const occurrence = seen.next(keyNumber(key));
  return `${key}\u0000${occurrence}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A directive's suppression (SARIF 3.35): in the ticket's source, at the directive's comment. */
function inSource(s: Suppression, where: { uri: string; uriBaseId?: string }, inPart: boolean): Record<string, unknown> {
  // Inside a package part, line and column are the part's: the location names the package file alone.
  const physicalLocation = inPart ? { artifactLocation: where } : { artifactLocation: where, region: { startLine: s.line, startColumn: s.column } };
  return { kind: 'inSource', ...(s.justification !== undefined ? { justification: s.justification } : {}), location: { physicalLocation } };
}

export function formatSarif(report: ValidationReport, catalog: readonly RuleMeta[], options: SarifOptions = {}): string {
  return [...sarifPieces(report, catalog, options)].join('');
}

/** Where a file's results are: its path, its part, its document URI (a FileReport's). */
export type SarifFile = { path: string; part?: string; documentUri?: string };

/**
 * The results of one file, made one at a time in the order they are written: its own findings, its references'
 * findings, then the suppressed ones likewise (sarifPieces). Fingerprints count equal keys in that order.
 */
export class SarifFileResults {
  private readonly where: { uri: string; uriBaseId?: string };
  private readonly seen = new KeyCounts();

  constructor(
    private readonly file: SarifFile,
    private readonly index: ReadonlyMap<string, number>,
    srcRoot: string | undefined,
  ) {
    this.where = artifactLocation(file.path, file.documentUri, srcRoot);
  }

  result(f: LocatedFinding, ref?: TicketReference): Record<string, unknown> {
    const { file, where } = this;
    const r: Record<string, unknown> = {
      ruleId: f.code,
      ruleIndex: this.index.get(f.code) ?? -1,
      level: LEVEL[f.severity],
      message: { text: (file.part !== undefined ? `In part ${file.part}, line ${f.line}:${f.column}: ` : '') + (ref ? `${f.message} (${ref.element}/@${ref.attribute})` : f.message) },
      // Inside a package part, line and column are the part's: the location names the package file alone.
      locations: [{ physicalLocation: file.part !== undefined ? { artifactLocation: where } : { artifactLocation: where, region: region(f, ref) } }],
      // Not the line: the same finding on the same value stays one alert when lines above it move.
      partialFingerprints: { 'jdfFilespecFinding/v2': fingerprint(findingKey(f, ref, where.uri, file.part ?? '', this.seen)) },
    };
    if (ref?.mappedBy || ref?.packagePart) r.properties = { ...(ref.mappedBy ? { mappedBy: ref.mappedBy } : {}), ...(ref.packagePart ? { packagePart: ref.packagePart } : {}) };
    // A fix is applied as it stands: one shown with a password masked would write "****" (see holdsPassword).
    // A finding with suggestions (two plausible meanings) offers each as a fix of its own (SARIF 3.27.30: fixes
    // holds every proposed fix), the person choosing one; `fix` applies none.
    const proposed: Array<{ text: string; value: string }> = [];
    if (ref !== undefined && file.path !== '-' && file.part === undefined) {
      if (f.fix !== undefined) proposed.push({ text: `Set ${ref.attribute} to ${f.fix}`, value: f.fix });
      for (const s of f.suggestions ?? []) proposed.push({ text: `Suggestion: ${s.desc}: set ${ref.attribute} to ${s.fix}`, value: s.fix });
    }
    const offered = proposed.filter((o) => !holdsPassword(o.value));
    if (ref && offered.length > 0) {
      r.fixes = offered.map((o) => ({
        description: { text: o.text },
        artifactChanges: [{
          artifactLocation: where,
          replacements: [{
            deletedRegion: { startLine: ref.line, startColumn: ref.column, endLine: ref.endLine, endColumn: ref.endColumn },
            insertedContent: { text: escapeAttribute(o.value) },
          }],
        }],
      }));
    }
    return r;
  }

  /** A finding a directive in the ticket silences, with its suppression (SARIF 3.27.23, 3.35). */
  silenced(f: SuppressedFinding, ref?: TicketReference): Record<string, unknown> {
    return { ...this.result(f, ref), suppressions: f.suppressions.map((s) => inSource(s, this.where, this.file.part !== undefined)) };
  }
}

/** The rule catalog's indexes by code, for each result's ruleIndex. */
export const ruleIndexes = (catalog: readonly RuleMeta[]): ReadonlyMap<string, number> => new Map(catalog.map((m, i) => [m.code, i]));

/** formatSarif in pieces (see json-pieces.ts): a result at a time. */
export function* sarifPieces(report: ValidationReport, catalog: readonly RuleMeta[], options: SarifOptions = {}): Generator<string> {
  const index = ruleIndexes(catalog);
  // Made one at a time as they are written: a result is bigger than its finding.
  function* results(): Generator<unknown> {
    for (const file of report.files) {
      const made = new SarifFileResults(file, index, options.srcRoot);
      for (const f of file.findings) yield made.result(f);
      for (const ref of file.references) for (const f of ref.findings) yield made.result(f, ref);
      for (const f of file.suppressed ?? []) yield made.silenced(f);
      for (const ref of file.references) for (const f of ref.suppressed ?? []) yield made.silenced(f, ref);
    }
  }
  yield* jsonPieces(sarifLog(report.tool.version, catalog, options, new LazyArray(results)));
  yield '\n';
}

// Long because: the SARIF log's parts in the order they are written.
/** The SARIF log around its results (`results`, written where the run's results are). */
export function sarifLog(version: string, catalog: readonly RuleMeta[], options: SarifOptions, results: unknown): unknown {
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'jdf-filespec',
          version,
          ...(options.informationUri !== undefined ? { informationUri: options.informationUri } : {}),
          rules: catalog.map((m) => ({
            id: m.code,
            name: m.code.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()),
            shortDescription: { text: m.title },
            fullDescription: { text: m.description },
            ...(options.docsUrl !== undefined ? { helpUri: `${options.docsUrl}#${m.code}` } : {}),
            help: {
              text: `${m.description} Spec: ${m.spec}. See docs/rules.md#${m.code}.`,
              markdown: `${m.description}\n\nSpec: ${m.spec}.${options.docsUrl !== undefined ? ` [${m.code} in docs/rules.md](${options.docsUrl}#${m.code})` : ` See docs/rules.md#${m.code}.`}`,
            },
            defaultConfiguration: { level: LEVEL[m.severity.jdf ?? 'warning'] },
            properties: { spec: m.spec },
          })),
        },
      },
      ...(options.srcRoot !== undefined ? { originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The folder jdf-filespec ran in (in CI, the checkout\'s root).' } } } } : {}),
      invocations: [{
        executionSuccessful: (options.unreadable ?? []).length === 0,
        toolExecutionNotifications: (options.unreadable ?? []).map((u) => ({
          level: 'error',
          message: { text: `cannot read ${u.path}: ${u.reason}` },
          locations: [{ physicalLocation: { artifactLocation: { uri: u.path.split('\\').join('/').split('/').map(encodeURIComponent).join('/') } } }],
        })),
      }],
      columnKind: 'utf16CodeUnits',
      results,
    }],
  };
  return sarif;
}
