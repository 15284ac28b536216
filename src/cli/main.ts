#!/usr/bin/env node
// The command line: read the input, call the library, pick a formatter, set the exit code. Nothing else.
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { checkUrl, type CheckResult } from '../check.js';
import { formatCheckText } from '../report/check-text.js';
import { jsonDocument } from '../report/json-pieces.js';
import { writePieces } from '../node/output.js';
import { fileUrlToPath, PATH_PLATFORMS, pathToFileUrl, PathConversionError } from '../paths/convert.js';
import { resolveReference } from '../uri/resolve.js';
import { withCheckOptions } from './options.js';
import { runValidate } from './validate.js';
import { runFix } from './fix.js';
import { PLATFORMS, PROFILES } from '../rules/types.js';
import { parseMap } from '../node/local-files.js';

/** Exit codes: 0 no error finding, 1 an error finding, 2 usage error or unreadable input. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

function readUrlList(file: string): string[] {
  // One URL per line; lines that start with "# " are comments. Only the line break is stripped, so a
  // trailing space stays part of the URL (appendix Table 4, example 27).
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '' && !line.startsWith('# '));
}

/** yargs drops a bare "-" from positionals, so it travels through the parser under another name. */
const STDIN_ARG = '\u0000stdin';

async function main(rawArgv: string[]): Promise<number> {
  let exitCode: number = EXIT.clean;
  const argv = rawArgv.map((a) => (a === '-' ? STDIN_ARG : a));
  const parser = yargs(argv)
    .scriptName('jdf-filespec')
    .usage('$0 <command> [options]\n\nFinds, resolves and checks the file references of JDF job tickets (JDF file-URL appendix, RFC 8089, RFC 3986).')
    .command(
      'check [urls..]',
      'Check URLs (FileSpec/@URL values) against the JDF file-URL appendix or RFC 8089',
      (y) =>
        withCheckOptions(y)
          .positional('urls', { type: 'string', array: true, describe: 'URLs to check' })
          .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
          .option('role', { choices: ['url', 'directory'] as const, default: 'url' as const, describe: 'Check as FileSpec/@URL or as RunList/@Directory' })
          .option('file', { type: 'string', describe: 'Read URLs from a file, one per line ("# " starts a comment line)' })
          .example('$0 check "file:///c:/my docs/a.pdf"', 'Flags the space and proposes file:///c:/my%20docs/a.pdf')
          .example('$0 check ../a.pdf --base file:///c:/jobs/', 'Resolves against the base and checks the result')
          .example('$0 check file:///c:/Jobs --role directory', 'Checks a RunList/@Directory'),
      async (args) => {
        const urls = [...(args.urls ?? []).map(String), ...(args.file ? readUrlList(args.file) : [])];
        if (urls.length === 0) throw new UsageError('Give at least one URL, or --file.');
        const results: CheckResult[] = urls.map((u) =>
          checkUrl(u, {
            ...(args.base !== undefined ? { base: args.base } : {}),
            profile: args.profile,
            platform: args.platform,
            ...(args.jdfVersion !== undefined ? { jdfVersion: args.jdfVersion } : {}),
            role: args.role,
            drivePreserving: args.drivePreserving,
          }),
        );
        await writePieces(process.stdout, args.format === 'json' ? jsonDocument(results) : [formatCheckText(results, { quiet: args.quiet })]);
        const anyError = results.some((r) => r.findings.some((f) => f.severity === 'error'));
        exitCode = anyError && !args.exitZero ? EXIT.findings : EXIT.clean;
      },
    )
    .command(
      'validate <paths..>',
      'Find, resolve and check every file reference in JDF, XJDF and JMF tickets',
      (y) =>
        withCheckOptions(y)
          .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Ticket files, folders (searched for .jdf .xjdf .jmf .xjmf .xml), or - for standard input' })
          .option('format', { choices: ['text', 'json', 'sarif'] as const, default: 'text' as const, describe: 'Output format' })
          .option('references', { type: 'boolean', default: false, describe: 'In text, list every reference with its base and target' })
          .option('max-bytes', { type: 'number', default: 512 * 1024 * 1024, describe: 'Files larger than this are reported, not read' })
          .option('jobs', { type: 'number', describe: 'Worker threads (default: one per core for 200 or more tickets, else none); the report is the same either way' })
          .option('check-exists', { type: 'boolean', default: false, describe: 'Look for every local file: missing, a folder, unreadable, or present only with other case' })
          .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable), e.g. file://fileserver/Jobs/=/mnt/jobs/' })
          .option('root', { type: 'string', describe: 'Every local file must stay inside this folder (after "..", %2E%2E, case and symbolic links); nothing outside it is opened' })
          .option('strict-xml', { type: 'boolean', default: false, describe: "Run fast-xml-parser's full validator first (also checks attributes of elements that hold no file reference)" })
          .example('$0 validate hot-folder/', 'Checks every ticket under hot-folder/')
          .example('cat ticket.jdf | $0 validate - --base file:///srv/hot/', 'Reads standard input; relative URLs resolve against --base')
          .example('$0 validate jobs/ --format sarif > jdf.sarif', 'SARIF 2.1.0 for code-scanning tools'),
      async (args) => {
        exitCode = await runValidate({
          paths: (args.paths ?? []).map((p) => (String(p) === STDIN_ARG ? '-' : String(p))),
          format: args.format,
          quiet: args.quiet,
          references: args.references,
          maxBytes: args.maxBytes,
          exitZero: args.exitZero,
          ...(args.jobs !== undefined ? { jobs: Math.max(1, Math.floor(args.jobs)) } : {}),
          local: {
            checkExists: args.checkExists,
            maps: (args.map ?? []).map((m) => parseMap(String(m))),
            ...(args.root !== undefined ? { root: args.root } : {}),
            profile: args.profile,
          },
          options: {
            strictXml: args.strictXml,
            ...(args.jdfVersion !== undefined ? { jdfVersion: args.jdfVersion } : {}),
            ...(args.base !== undefined ? { base: args.base } : {}),
            profile: args.profile,
            platform: args.platform,
            drivePreserving: args.drivePreserving,
          },
        });
      },
    )
    .command(
      'fix <paths..>',
      'Apply the safe fixes to URL attribute values in place; every other byte stays as it was',
      (y) =>
        y
          .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Ticket files or folders' })
          .option('dry-run', { type: 'boolean', default: false, describe: 'Print a unified diff and change nothing' })
          .option('backup', { type: 'boolean', default: false, describe: 'Keep the original as FILE.orig' })
          .option('profile', { choices: PROFILES, default: 'jdf' as const, describe: 'Rules whose fixes apply' })
          .option('platform', { choices: PLATFORMS, default: 'any' as const, describe: 'Platform of the consumer' })
          .option('base', { type: 'string', describe: 'Base URI instead of each ticket\'s folder' })
          .example('$0 fix hot-folder/ --dry-run', 'Shows what would change')
          .example('$0 fix ticket.jdf --backup', 'Fixes in place, keeps ticket.jdf.orig'),
      async (args) => {
        exitCode = await runFix({
          paths: (args.paths ?? []).map(String),
          dryRun: args.dryRun,
          backup: args.backup,
          validate: { profile: args.profile, platform: args.platform, ...(args.base !== undefined ? { base: args.base } : {}) },
        });
      },
    )
    .command(
      'to-path <url>',
      'The local path a file URL names on a platform',
      (y) =>
        y
          .positional('url', { type: 'string', demandOption: true, describe: 'A file URL' })
          .option('platform', { choices: PATH_PLATFORMS, default: 'posix' as const, describe: 'posix, windows (drive letters, UNC), mac (HFS, appendix Table 5) or vms' })
          .example('$0 to-path file://fileserver/Jobs/a%20b.pdf --platform windows', 'Prints \\\\fileserver\\Jobs\\a b.pdf'),
      (args) => {
        exitCode = convertPath(() => fileUrlToPath(String(args.url), { platform: args.platform }));
      },
    )
    .command(
      'from-path <path>',
      'The file URL for a local path on a platform',
      (y) =>
        y
          .positional('path', { type: 'string', demandOption: true, describe: 'A path' })
          .option('platform', { choices: PATH_PLATFORMS, default: 'posix' as const, describe: 'posix, windows, mac or vms' })
          .option('form', { choices: ['traditional', 'minimal'] as const, default: 'traditional' as const, describe: 'file:///path (traditional) or file:/path (minimal, RFC 8089)' })
          .example('$0 from-path "C:\\my docs\\a.pdf" --platform windows', 'Prints file:///C:/my%20docs/a.pdf'),
      (args) => {
        exitCode = convertPath(() => pathToFileUrl(String(args.path), { platform: args.platform, form: args.form }));
      },
    )
    .command(
      'resolve <reference>',
      'Resolve a reference against a base URI (RFC 3986 section 5.2)',
      (y) =>
        y
          .positional('reference', { type: 'string', demandOption: true, describe: 'The relative or absolute reference' })
          .option('base', { type: 'string', demandOption: true, describe: 'The base URI (RunList/@Directory or the ticket folder)' })
          .option('drive-preserving', { type: 'boolean', default: false, describe: 'RFC 8089 E.2.1: never climb above the drive letter' })
          .example('$0 resolve ../F-22/job001.pdf --base file:///c:/DownloadDir/Title-J626103/', 'Prints file:///c:/DownloadDir/F-22/job001.pdf'),
      (args) => {
        process.stdout.write(resolveReference(String(args.reference), args.base, { drivePreserving: args.drivePreserving }) + '\n');
      },
    )
    .demandCommand(1, 'Name a command.')
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`jdf-filespec: ${message}\nRun "jdf-filespec --help" for usage.\n`);
    return EXIT.usage;
  }
  return exitCode;
}

class UsageError extends Error {}

/** Prints a conversion, or why it is impossible (exit 1: the input is fine as input, it just names no path there). */
function convertPath(convert: () => string): number {
  try {
    process.stdout.write(convert() + '\n');
    return EXIT.clean;
  } catch (error) {
    if (!(error instanceof PathConversionError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message} (${error.code})\n`);
    return EXIT.findings;
  }
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`jdf-filespec: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.usage;
  },
);
