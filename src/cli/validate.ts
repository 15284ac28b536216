import { mkdir, stat } from 'node:fs/promises';
import { defaultJobs, sharedLanes, validateBatch, validateFormatted } from '../node/batch.js';
import { expandPaths, type DiscoverOptions } from '../node/discover.js';
import { writePieces } from '../node/output.js';
import type { LocalFileOptions } from '../node/local-files.js';
import { withViews } from './views.js';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { buildReport, type FileReport, type ValidationReport } from '../report/report.js';
import { plural, summaryLine } from '../report/check-text.js';
import { reportPieces, type ReportFormat } from '../report/formats.js';
import { forTerminal } from '../report/terminal.js';
import type { TicketSource, UnreadablePath } from '../node/files.js';
import { JsonReportStream } from './json-stream.js';
import { SarifReportStream } from './sarif-stream.js';
import { LinesReportStream } from './lines-stream.js';
import type { SarifOptions } from '../report/sarif.js';
import { useColor } from './color.js';
import { ruleCatalog } from '../rules/catalog.js';
import { parseRuleOption, type RuleSetting } from '../rules/settings.js';
import type { ValidateOptions } from '../ticket/validate.js';
import { unknownVocabulary } from '../ticket/vendor.js';
import { parseUrlAttribute, type VocabularyRow } from '../ticket/vocabulary.js';
import { docsUrl, homepage, packageVersion } from './version.js';
import { foundOnly, foundTicketsOnly } from './found.js';
import { TextReportStream } from './text-stream.js';
import type { FormattedFile } from '../report/file-pieces.js';
import { ignoredFiles, unmatched } from './unmatched.js';

export interface ValidateRun {
  paths: string[];
  discovery?: DiscoverOptions;
  /** A folder or pattern without tickets is a usage error (exit 2). */
  errorOnUnmatchedPattern?: boolean;
  format: ReportFormat;
  /** -o: the report goes to this file, the summary line to standard output. */
  outputFile?: string;
  /** Exit 1 with more warnings than this. */
  maxWarnings?: number;
  /** --color / --no-color; else the terminal and NO_COLOR / FORCE_COLOR decide. */
  color?: boolean;
  /** The name of standard input in reports; its folder is the base. */
  stdinFilename?: string;
  /** Stack traces in internal-error findings. */
  debug?: boolean;
  quiet: boolean;
  references: boolean;
  maxBytes: number;
  exitZero: boolean;
  /** Threads that check tickets, this one and N - 1 workers; by default one per free core for many tickets (defaultJobs), this one for a few. */
  jobs?: number;
  /** --check-exists, --map, --root. */
  local?: LocalFileOptions;
  options: ValidateOptions;
  /** --config FILE; else jdf-filespec.config.json is looked for upward from the working folder. */
  config?: string;
  /** --url-attribute ELEMENT/@ATTR[=directory], as given. */
  urlAttributes?: string[];
  /** --rule CODE:SETTING, as given: over the config's rules. */
  rules?: string[];
  /** --vocabulary NAME, as given: added to the config's vocabularies. */
  vocabularies?: string[];
}

/** Reads the tickets, validates each, prints the report; returns the exit code (2 when a path could not be read). */
export async function runValidate(run: ValidateRun): Promise<number> {
  if (urlAttributeRows(run.urlAttributes ?? []) === undefined) return 2;
  const given = ruleSettings(run.rules ?? []);
  if (given === undefined) return 2;
  for (const name of run.vocabularies ?? []) {
    const problem = unknownVocabulary(name);
    if (problem === undefined) continue;
    process.stderr.write(`jdf-filespec: --vocabulary ${problem}\n`);
    return 2;
  }
  if (run.local?.root !== undefined) {
    try {
      if (!(await stat(run.local.root)).isDirectory()) throw new Error('not a folder');
    } catch {
      process.stderr.write(`jdf-filespec: --root ${run.local.root} is not a folder\n`);
      return 2;
    }
  }
  const settings = await withViews(run.config, run.local);
  if (settings === null) return 2;
  const local = settings.local;
  // The config's attributes, then those of --url-attribute (both checked by now).
  const extra = urlAttributeRows([...settings.urlAttributes, ...(run.urlAttributes ?? [])])!;
  if (extra.length > 0) run = { ...run, options: { ...run.options, urlAttributes: extra } };
  // The config's rules, then --rule's.
  const rules = { ...settings.rules, ...given };
  if (Object.keys(rules).length > 0) run = { ...run, options: { ...run.options, rules } };
  const vocabularies = [...new Set([...settings.vocabularies, ...(run.vocabularies ?? [])])];
  if (vocabularies.length > 0) run = { ...run, options: { ...run.options, vocabularies } };
  const expanded = await expandPaths(run.paths, { ...run.discovery, ...(run.stdinFilename !== undefined ? { stdinFilename: run.stdinFilename } : {}) });
  ignoredFiles(expanded.ignored);
  if (run.errorOnUnmatchedPattern !== false && unmatched(expanded.unmatched)) return 2;
  // A progress line on a terminal only: never in a pipe, never with machine formats.
  const showProgress = process.stderr.isTTY === true && run.format === 'text' && expanded.sources.length >= 20;
  let lastDrawn = 0;
  const progress = showProgress
    ? (done: number, total: number) => {
        const now = Date.now();
        if (now - lastDrawn < 100 && done + 1 < total) return;
        lastDrawn = now;
        const width = 30;
        const filled = Math.round((width * (done + 1)) / total);
        process.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done + 1}/${total} tickets`);
      }
    : undefined;
  const jobs = run.jobs ?? defaultJobs(expanded.sources.length);
  // JSON is written as the reports come, a big ticket's as it is checked (json-stream.ts), SARIF made from them
  // as they come (sarif-stream.ts), unix and GitHub lines each file's in order (lines-stream.ts); in folder mode the tickets found are known only once all are read
  // (foundTicketsOnly), so the report is written whole.
  if (run.format !== 'text' && !expanded.sources.some((s) => s.foundIn !== undefined)) return streamReport(run, expanded.sources, expanded.unreadable, jobs, local);
  // Several threads: each formats the files it checks (formatFile), the report is put together from their text.
  const lanes = sharedLanes(expanded.sources, jobs);
  if (lanes > 1) return sharedReport(run, expanded, lanes, local, progress);
  const batch = await validateBatch(expanded.sources, run.options, { maxBytes: run.maxBytes, jobs, local, onProgress: progress, debug: run.debug, blockingReads: true });
  if (showProgress) process.stderr.write('\r\x1b[K');
  const { files, emptied } = foundTicketsOnly(batch.files, expanded.sources, run.debug === true);
  if (run.errorOnUnmatchedPattern !== false && unmatched(emptied)) return 2;
  const unreadable = batch.unreadable;
  unreadable.unshift(...expanded.unreadable);
  // Standard input under the name --stdin-filename gives it.
  const named = run.stdinFilename === undefined ? files : files.map((f) => (f.path === '-' ? { ...f, path: run.stdinFilename! } : f));
  const report = buildReport(named, packageVersion());
  const color = useColor(run.color, run.outputFile !== undefined ? {} : process.stdout);
  const options = { quiet: run.quiet, references: run.references, color, catalog: ruleCatalog, ...sarifOptions(), unreadable };
  const written = await writeReport(run, async (out) => {
    await writePieces(out, reportPieces(report, run.format, options));
    return report.summary;
  });
  for (const u of unreadable) process.stderr.write(forTerminal(`jdf-filespec: cannot read ${u.path}: ${u.reason}`) + '\n');
  if (!written) return 2;
  return exitCode(run, report.summary, unreadable);
}

/** The exit code of a run whose report has this summary: 2 when a path could not be read. */
function exitCode(run: ValidateRun, summary: ValidationReport['summary'], unreadable: readonly UnreadablePath[]): number {
  if (unreadable.length > 0) return 2;
  if (run.exitZero) return 0;
  // Under --quiet no warning counts, as ESLint 9 runs no warning rule then.
  if (summary.error === 0 && run.maxWarnings !== undefined && !run.quiet && summary.warning > run.maxWarnings) {
    process.stderr.write(`jdf-filespec: ${plural(summary.warning, 'warning')}, more than --max-warnings ${run.maxWarnings}\n`);
    return 1;
  }
  return summary.error > 0 ? 1 : 0;
}

/**
 * validate -f json, sarif, unix or github, written from the reports as they come (JsonReportStream,
 * SarifReportStream, LinesReportStream), to
 * standard output or to -o FILE (then the summary line to standard output); the same document and exit code as
 * writeReport's.
 */
async function streamReport(run: ValidateRun, sources: readonly TicketSource[], unreadable: UnreadablePath[], jobs: number, local: LocalFileOptions | undefined): Promise<number> {
  const named = (f: FileReport) => (run.stdinFilename !== undefined && f.path === '-' ? { ...f, path: run.stdinFilename } : f);
  let file: WriteStream | undefined;
  if (run.outputFile !== undefined) {
    try {
      // As ESLint does: the folder of -o FILE is made when it is missing.
      await mkdir(path.dirname(path.resolve(run.outputFile)), { recursive: true });
      file = createWriteStream(run.outputFile);
    } catch (error) {
      process.stderr.write(`jdf-filespec: cannot write ${run.outputFile}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const sink = reportSink(run, file ?? process.stdout, named) as JsonReportStream | SarifReportStream | LinesReportStream;
  let summary: ValidationReport['summary'];
  try {
    await sink.start();
    await validateBatch(sources, run.options, { maxBytes: run.maxBytes, jobs, local, debug: run.debug, sink, blockingReads: true });
    summary = await sink.end([...unreadable, ...sink.unreadables]);
    if (file !== undefined) {
      file.end();
      await finished(file);
    }
  } catch (error) {
    // SARIF's results and a big ticket's lines are kept in a temporary file: that file too may fail to be written.
    if (file === undefined && (sink instanceof JsonReportStream || (error as NodeJS.ErrnoException).syscall === undefined)) throw error;
    process.stderr.write(`jdf-filespec: cannot write ${run.outputFile ?? 'a temporary file'}: ${(error as Error).message}\n`);
    return 2;
  } finally {
    sink.dispose();
  }
  unreadable.push(...sink.unreadables);
  for (const u of unreadable) process.stderr.write(forTerminal(`jdf-filespec: cannot read ${u.path}: ${u.reason}`) + '\n');
  if (run.outputFile !== undefined) {
    const s = run.quiet ? { ...summary, warning: 0, info: 0 } : summary;
    await writePieces(process.stdout, [`${summaryLine(s, `${plural(s.files, 'file')}, ${plural(s.references, 'reference')}`)}; report in ${run.outputFile}\n`]);
  }
  return exitCode(run, summary, unreadable);
}

/** The writer of `run`'s format to `out` (text only from formatted files: sharedReport). */
function reportSink(run: ValidateRun, out: NodeJS.WritableStream, named: (f: FileReport) => FileReport, color = false): JsonReportStream | SarifReportStream | LinesReportStream | TextReportStream {
  switch (run.format) {
    case 'json': return new JsonReportStream(out, packageVersion(), run.quiet, named);
    case 'sarif': return new SarifReportStream(out, packageVersion(), run.quiet, named, ruleCatalog, sarifOptions());
    case 'text': return new TextReportStream(out, run.quiet, { references: run.references, color });
    default: return new LinesReportStream(out, run.format, run.quiet, named);
  }
}

/**
 * validate in folder mode or as text, its tickets checked by `lanes` threads, each formatting the files it checks
 * (formatFile): the same report, summary line, messages and exit code as runValidate's own path.
 */
async function sharedReport(run: ValidateRun, expanded: { sources: TicketSource[]; unreadable: UnreadablePath[] }, lanes: number, local: LocalFileOptions | undefined, progress: ((done: number, total: number) => void) | undefined): Promise<number> {
  const color = useColor(run.color, run.outputFile !== undefined ? {} : process.stdout);
  const format = reportSink(run, process.stdout, (f) => f, color).format;
  const work = { options: run.options, maxBytes: run.maxBytes, ...(local ? { local } : {}), debug: run.debug === true, blockingReads: true, format };
  const results = await validateFormatted(expanded.sources, lanes, work, progress);
  if (progress) process.stderr.write('\r\x1b[K');
  const unreadable = [...expanded.unreadable];
  const made: FormattedFile[] = [];
  for (const r of results) {
    if ('reason' in r) unreadable.push(r);
    else made.push(r as FormattedFile);
  }
  const { files, emptied } = foundOnly(made, expanded.sources, run.debug === true, (f) => f.notTicket);
  if (run.errorOnUnmatchedPattern !== false && unmatched(emptied)) return 2;
  let summary: ValidationReport['summary'] | undefined;
  let written: boolean;
  try {
    written = await writeReport(run, async (out) => {
      const sink = reportSink(run, out, (f) => f, color);
      try {
        await sink.start();
        for (const f of files) await sink.formatted(f);
        return (summary = await sink.end(unreadable));
      } finally {
        sink.dispose();
      }
    });
  } catch (error) {
    // SARIF's results are kept in a temporary file (sarif-stream.ts), which too may fail to be written.
    if ((error as NodeJS.ErrnoException).syscall === undefined) throw error;
    process.stderr.write(`jdf-filespec: cannot write a temporary file: ${(error as Error).message}\n`);
    return 2;
  }
  for (const u of unreadable) process.stderr.write(forTerminal(`jdf-filespec: cannot read ${u.path}: ${u.reason}`) + '\n');
  if (!written) return 2;
  return exitCode(run, summary!, unreadable);
}

/** --url-attribute values as vocabulary rows; undefined after saying which one is malformed (a usage error). */
export function urlAttributeRows(texts: readonly string[]): VocabularyRow[] | undefined {
  const rows: VocabularyRow[] = [];
  for (const text of texts) {
    const row = parseUrlAttribute(text);
    if (row === undefined) {
      process.stderr.write(`jdf-filespec: --url-attribute takes ELEMENT/@ATTR or ELEMENT/@ATTR=directory (such as Device/@HDM:Hotfolder=directory or HDM:ReportList/@Directory=directory), not "${text}"\n`);
      return undefined;
    }
    rows.push(row);
  }
  return rows;
}

/** --rule values as settings (the last for a code wins); undefined after saying which one is not CODE:SETTING (a usage error). */
function ruleSettings(texts: readonly string[]): Record<string, RuleSetting> | undefined {
  const settings: Record<string, RuleSetting> = {};
  for (const text of texts) {
    const parsed = parseRuleOption(text);
    if ('problem' in parsed) {
      process.stderr.write(`jdf-filespec: ${parsed.problem}\n`);
      return undefined;
    }
    settings[parsed.code] = parsed.setting;
  }
  return settings;
}

/** SARIF's locations (under the working folder) and links (the docs and home page, when known). */
function sarifOptions(): SarifOptions {
  return {
    srcRoot: pathToFileURL(process.cwd() + path.sep).href,
    ...(docsUrl() !== undefined ? { docsUrl: docsUrl()!, informationUri: homepage()! } : {}),
  };
}

/**
 * The report, written by `write` (a report can outgrow one string), to standard output or to -o FILE, then the
 * summary line `write` returns the counts of; false when FILE could not be written.
 */
async function writeReport(run: ValidateRun, write: (out: NodeJS.WritableStream) => Promise<ValidationReport['summary']>): Promise<boolean> {
  if (run.outputFile === undefined) {
    await write(process.stdout);
    return true;
  }
  let summary: ValidationReport['summary'];
  try {
    // As ESLint does: the folder of -o FILE is made when it is missing.
    await mkdir(path.dirname(path.resolve(run.outputFile)), { recursive: true });
    const stream = createWriteStream(run.outputFile);
    summary = await write(stream);
    stream.end();
    await finished(stream);
  } catch (error) {
    process.stderr.write(`jdf-filespec: cannot write ${run.outputFile}: ${(error as Error).message}\n`);
    return false;
  }
  // What the file shows: with --quiet, errors only (errorsOnly).
  const s = run.quiet ? { ...summary, warning: 0, info: 0 } : summary;
  await writePieces(process.stdout, [`${summaryLine(s, `${plural(s.files, 'file')}, ${plural(s.references, 'reference')}`)}; report in ${run.outputFile}\n`]);
  return true;
}
