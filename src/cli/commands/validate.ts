import { defineCommand, givenPaths } from '../define.js';
import { discoveryOf, withCheckOptions, withDiscoveryOptions } from '../options.js';
import { hostPlatformDefault, platformHere } from '../platforms.js';
import { byteSize, wholeNumber } from '../numbers.js';
import { ENGINE_MAX_BYTES } from '../../node/limits.js';
import { FOLDER_EXTENSIONS } from '../../node/extensions.js';

/** What --help says a folder is searched for: the search's own table. */
const searched = `${FOLDER_EXTENSIONS.filter((e) => e !== '.zip').join(' ')}, and .zip job packages`;

export const validate = defineCommand({
  command: 'validate [paths..]',
  describe: 'Find, resolve and check every file reference in JDF, XJDF and JMF tickets',
  builder: (y) =>
    withDiscoveryOptions(withCheckOptions(y))
      .positional('paths', { type: 'string', array: true, default: ['.'], defaultDescription: '. (the working folder, as ESLint)', describe: `Ticket files, job packages (MIME .mjm/.mjd/.mim or zip, told from their bytes), folders (searched for ${searched}), quoted glob patterns, or - for standard input` })
      .option('format', { alias: 'f', choices: ['text', 'json', 'sarif', 'unix', 'github'] as const, default: 'text' as const, describe: 'Report format: text, json (schemas/report.schema.json), sarif (SARIF 2.1.0), unix (file:line:col: severity message [code], one per line), github (GitHub Actions annotations)' })
      .option('output-file', { alias: 'o', type: 'string', requiresArg: true, describe: 'Write the report to this file; the summary line still goes to the terminal' })
      .option('max-warnings', { requiresArg: true, coerce: wholeNumber('max-warnings', 0), describe: 'Exit 1 when there are more warnings than this, a whole number, even without errors (under --quiet no warning counts, as in ESLint 9)' })
      .option('color', { type: 'boolean', describe: 'Colour the severities in text (default: on a terminal; NO_COLOR and FORCE_COLOR are honoured); --no-color turns it off' })
      .option('stdin-filename', { type: 'string', requiresArg: true, describe: 'Read standard input (-) as the file of this name: its name in reports, its folder the document base (a package too), --check-exists and --root as for that file' })
      .option('debug', { type: 'boolean', default: false, describe: 'Put the stack trace in internal-error findings' })
      .option('references', { type: 'boolean', default: false, describe: 'In text, list every reference with its base and target' })
      .option('max-bytes', { requiresArg: true, default: '256MiB', coerce: byteSize('max-bytes', ENGINE_MAX_BYTES), describe: 'Tickets larger than this are reported (file-too-large), not read: a size in bytes, or with a unit (10kB, 100MiB)' })
      .option('jobs', { requiresArg: true, coerce: wholeNumber('jobs', 1), describe: 'Threads that check tickets, a whole number: this one and N-1 workers (default: for 200 or more tickets on three or more cores, one per core the load average leaves free; else 1); the report is the same either way' })
      .option('platform', hostPlatformDefault)
      .option('check-exists', { type: 'boolean', default: false, describe: 'Look for every local file: missing (naming the one file it most likely is: other case, NFC/NFD, %20, Latin-1, the Directory dropped or doubled), a folder, a FIFO or device, unreadable; and compare FileSpec/@FileSize, @MimeType (magic bytes) and RunList/@NPage, @Pages (PDF page count) with the file' })
      .option('map', { type: 'string', array: true, describe: 'PREFIX=PATH: read URLs under PREFIX as files under the local folder PATH (repeatable), e.g. file://fileserver/Jobs/=/mnt/jobs/' })
      .option('root', { type: 'string', describe: 'Every local file must stay inside this folder (after "..", %2E%2E, case and symbolic links); nothing outside it is opened' })
      .option('verify-checksums', { type: 'boolean', default: false, describe: 'With --check-exists, compare FileSpec/@CheckSum with the MD5 of each file (reads every byte)' })
      .option('config', { type: 'string', describe: 'The config with the view table (default: jdf-filespec.config.json in this folder or the nearest one above, if you or root own it and only its owner can write it and its folder)' })
      .option('url-attribute', { type: 'string', array: true, requiresArg: true, describe: 'ELEMENT/@ATTR[=directory]: also read this attribute, which the schemas do not type, as a URL (or a folder), e.g. Device/@HDM:Hotfolder=directory or HDM:ReportList/@Directory=directory (names as written, prefixes too; repeatable)' })
      .option('vocabulary', { type: 'string', array: true, requiresArg: true, describe: "Also read a vendor's attributes, matched by namespace URI: heidelberg (Prinect's HDM:ReportList/@Directory, @HDM:Hotfolder, ...), kodak (Layout/@Creo:Preps_Job_File, ...); repeatable, added to the config's vocabularies" })
      .option('rule', { type: 'string', array: true, requiresArg: true, describe: 'CODE:SETTING: report rule CODE at another severity (error, warning, info) or not at all (off), over the config\'s rules (repeatable), e.g. root-without-drive:off' })
      .option('report-unused-disable-directives', { type: 'boolean', default: false, describe: 'Report each <!-- jdf-filespec-disable... --> directive in a ticket that silences nothing (unused-disable-directive, a warning)' })
      .option('strict-xml', { type: 'boolean', default: false, describe: "Run fast-xml-parser's full validator first (a malformed tag is then one xml-malformed error, and no reference is read)" })
      .example('$0 validate hot-folder/', 'Checks every ticket under hot-folder/')
      .example("$0 validate 'jobs/**/*.jdf' --ignore-pattern 'jobs/archive/'", 'A glob pattern (quoted), less a folder')
      .example('cat ticket.jdf | $0 validate - --base file:///srv/hot/', 'Reads standard input; relative URLs resolve against --base')
      .example('$0 validate jobs/ -f sarif -o jdf.sarif', 'SARIF 2.1.0 for code-scanning tools')
      .example('$0 validate jobs/ -f unix --max-warnings 0', 'One line a finding; warnings fail the run too')
      .example('$0 validate jobs/ --rule root-without-drive:off --rule unknown-scheme:error', 'A rule off, another an error'),
  load: () => import('../validate.js'),
  run: async (args) => {
    const { runValidate } = await import('../validate.js');
    // --map's reader lives with the file checks, which a run without --map need not load.
    const maps = args.map?.length ? await import('../../node/local-files.js').then(({ parseMap }) => args.map!.map((m) => parseMap(String(m)))) : [];
    return runValidate({
      paths: givenPaths(args.paths),
      discovery: discoveryOf(args),
      errorOnUnmatchedPattern: args.errorOnUnmatchedPattern,
      format: args.format,
      ...(args.outputFile !== undefined ? { outputFile: args.outputFile } : {}),
      ...(args.maxWarnings !== undefined ? { maxWarnings: args.maxWarnings } : {}),
      ...(args.color !== undefined ? { color: args.color } : {}),
      ...(args.stdinFilename !== undefined ? { stdinFilename: args.stdinFilename } : {}),
      debug: args.debug,
      quiet: args.quiet,
      references: args.references,
      maxBytes: args.maxBytes,
      exitZero: args.exitZero,
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.urlAttribute !== undefined ? { urlAttributes: args.urlAttribute.map(String) } : {}),
      ...(args.rule !== undefined ? { rules: args.rule.map(String) } : {}),
      ...(args.vocabulary !== undefined ? { vocabularies: args.vocabulary.map(String) } : {}),
      ...(args.jobs !== undefined ? { jobs: args.jobs } : {}),
      local: {
        checkExists: args.checkExists,
        verifyChecksums: args.verifyChecksums,
        maps,
        ...(args.root !== undefined ? { root: args.root } : {}),
        profile: args.profile,
      },
      options: {
        strictXml: args.strictXml,
        reportUnusedDisableDirectives: args.reportUnusedDisableDirectives,
        ...(args.jdfVersion !== undefined ? { jdfVersion: args.jdfVersion } : {}),
        ...(args.base !== undefined ? { base: args.base } : {}),
        profile: args.profile,
        platform: platformHere(args.platform, args.checkExists),
        drivePreserving: args.drivePreserving,
      },
    });
  },
});
