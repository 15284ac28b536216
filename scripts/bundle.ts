// npm run build, after tsc: the command line as esbuild bundles it into dist/bin/, the file package.json's bin
// names. A run loads a handful of files instead of a module per source file (--help loaded 68, validate 225):
// dist/bin/jdf-filespec.js holds main.ts and the commands' options, yargs is a chunk of its own loaded after the
// --version shortcut, the commands and the worker that validateBatch starts (dist/bin/batch-worker.js) are one
// build whose chunks they share (each module once: dist/bin/ is 1.5 MB, where a build per command repeated what
// they share in 6 MB), grouped so that a run loads a handful of them (see withCore), and
// dist/bin/fast-xml-parser.cjs is the XML parser, required the first time a ticket needs it.
// pdfjs-dist, an optional dependency, stays outside and is imported from node_modules when a PDF is opened.
// No source maps: they would point into node_modules, which the package does not ship. The bundle's whitespace
// and comments are left out (minifyWhitespace; names are kept, nothing else is rewritten): 1.78 MB -> 1.27 MB,
// which keeps the package under its size limit; the readable code ships beside it in dist/src.
//
// What bundling would change, kept as tsc's output has it:
// - `new URL('<relative>', import.meta.url)` in our modules names a file relative to the module; in the bundle
//   it is relative to dist/bin/, so the relative part is rewritten (the worker's becomes the worker's bundle).
// - yargs' y18n reads its English strings from ../../../locales beside its own file: the bundle reads them from
//   dist/bin/locales/en.json, copied there (main.ts sets the locale to English; no other is ever read).
// - jsonc-parser's main is a UMD module whose requires esbuild cannot follow: the bundle takes its ES module, as
//   one default export, which is what src/config/check.ts gets from Node (the CommonJS one's exports).
// - esbuild's require() for CommonJS dependencies that require Node's modules (yazl) needs a `require`: one
//   createRequire in the chunk that defines that helper, not one in every chunk (0.2 ms each).
// Work the bundle leaves out, the output the same (test/bundle.test.ts holds it byte for byte):
// - string-width (yargs, cliui, wrap-ansi) sets up an Intl.Segmenter on load and runs an emoji regex on every
//   character: most of --help's time. The bundle answers printable ASCII by its length (each such character
//   is one column, which the test checks against every string-width installed) and loads the real one,
//   unchanged, for anything else.
// - yargs renders a command's whole help each time it runs one, for a failure of the command to print; ours
//   never prints it (main.ts's fail() throws), so the bundle does not render it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { writeStamp } from './bundle-stamp.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outdir = path.join(root, 'dist/bin');
/** Output name to tsc's output: the CLI and the worker it starts by URL. */
const ENTRIES: Record<string, string> = {
  'jdf-filespec': path.join(root, 'dist/src/cli/main.js'),
  'batch-worker': path.join(root, 'dist/src/node/batch-worker.js'),
};
const require = createRequire(import.meta.url);

/** `new URL('x', import.meta.url)` in tsc's output, pointed at the same file from dist/bin/. */
const relocateUrls: esbuild.Plugin = {
  name: 'relocate-urls',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const contents = text.replace(/new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g, (_, quote: string, relative: string) => {
        const target = fileURLToPath(new URL(relative, pathToFileURL(args.path)));
        const entry = Object.entries(ENTRIES).find(([, file]) => file === target)?.[0];
        if (entry === undefined && !existsSync(target)) throw new Error(`${args.path}: ${relative} names ${target}, which does not exist`);
        const moved = entry !== undefined ? `./${entry}.js` : path.relative(outdir, target).split(path.sep).join('/');
        return `new URL(${quote}${moved.startsWith('.') ? moved : `./${moved}`}${quote}, import.meta.url)`;
      });
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** y18n's folder of yargs' strings: dist/bin/locales/ instead of three folders above yargs' own file. */
const yargsLocales: esbuild.Plugin = {
  name: 'yargs-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = "resolve(__dirname, '../../../locales')";
      if (!text.includes(from)) throw new Error(`${args.path} no longer says ${from}: see how its y18n finds its strings`);
      return { contents: text.replace(from, "fileURLToPath(new URL('./locales/', import.meta.url))"), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * yargs renders a command's whole help (cliui, every option) each time it runs the command's handler, and keeps
 * it for a failure of that handler to print. main.ts's fail() throws instead of printing help, so the text is
 * never shown: the bundle does not render it (validate's help is 45 lines: 15-25 ms of CPU per run).
 */
const yargsHelpCache: esbuild.Plugin = {
  name: 'yargs-help-cache',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]build[\\/]lib[\\/]usage\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = 'cachedHelpMessage = this.help();';
      if (!text.includes(from)) throw new Error(`${args.path} no longer says ${from}: see how yargs caches a command's help`);
      return { contents: text.replace(from, 'cachedHelpMessage = undefined;'), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** jsonc-parser's ES module as one default export (Node gives src/config/check.ts the CommonJS exports). */
const jsoncDefault: esbuild.Plugin = {
  name: 'jsonc-default',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, () => {
      const manifest = require.resolve('jsonc-parser/package.json');
      const module = (JSON.parse(readFileSync(manifest, 'utf8')) as { module: string }).module;
      return { path: path.relative(root, path.join(path.dirname(manifest), module)), namespace: 'jsonc-default' };
    });
    build.onLoad({ filter: /.*/, namespace: 'jsonc-default' }, (args) => ({
      contents: `import * as jsonc from ${JSON.stringify(`./${args.path}`)};\nexport default jsonc;\n`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** Each string-width: printable ASCII by its length, anything else by the real one, loaded on first need. */
const asciiWidth: esbuild.Plugin = {
  name: 'ascii-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      // Named from the project's root, so that no path of this machine goes into the bundle.
      return { path: path.relative(root, real.path), namespace: 'ascii-width' };
    });
    // require() of an ES module in a bundle: esbuild runs that module when require is first called.
    build.onLoad({ filter: /.*/, namespace: 'ascii-width' }, (args) => ({
      contents: [
        'const PRINTABLE_ASCII = /^[\\x20-\\x7e]*$/;',
        'let measure;',
        'export default function stringWidth(string, options) {',
        "  if (typeof string === 'string' && PRINTABLE_ASCII.test(string)) return string.length;",
        `  measure ??= require(${JSON.stringify(`./${args.path}`)}).default;`,
        '  return measure(string, options);',
        '}',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * fast-xml-parser (with its entity decoder, path matcher and number parsers) is a file of its own,
 * dist/bin/fast-xml-parser.cjs, required when first used: our scan builds the element tree of every well-formed
 * ticket it expects, so most runs never call the parser, and a run that does not call it does not load its
 * 195 KB either. Our code uses two things of it, `new XMLParser(options)` with `XMLParser.getMetaDataSymbol()`,
 * and `XMLValidator.validate`; the stand-in forwards both to the real module. The file is the same source
 * (the ES module the resolver names, found here) bundled as CommonJS, which a synchronous require can load.
 */
const XML_PARSER_FILE = 'fast-xml-parser.cjs';
let xmlParserSource: string | undefined;
const lazyXmlParser: esbuild.Plugin = {
  name: 'lazy-xml-parser',
  setup(build) {
    build.onResolve({ filter: /^fast-xml-parser$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      if (xmlParserSource !== undefined && xmlParserSource !== real.path) throw new Error(`fast-xml-parser is ${xmlParserSource} and ${real.path}: two copies`);
      xmlParserSource = real.path;
      return { path: 'fast-xml-parser', namespace: 'lazy-xml-parser' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-xml-parser' }, () => ({
      contents: [
        "import { createRequire } from 'node:module';",
        'let real;',
        `const load = () => (real ??= createRequire(import.meta.url)(${JSON.stringify(`./${XML_PARSER_FILE}`)}));`,
        'export class XMLParser {',
        '  constructor(options) { return new (load().XMLParser)(options); }',
        '  static getMetaDataSymbol() { return load().XMLParser.getMetaDataSymbol(); }',
        '}',
        'export const XMLValidator = { validate: (text, options) => load().XMLValidator.validate(text, options) };',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** esbuild's require() for what it leaves to run time, which calls the `require` in its scope when there is one. */
const REQUIRE_HELPER = /typeof require\s*!==\s*"undefined"\s*\?\s*require/;
const NODE_REQUIRE = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);\n";

/**
 * Each command is an entry of the commands' build, dist/bin/<name>.js: in main.ts's build, a command's dynamic
 * import of its module (cli/check.js, ..., and node/local-files.js that validate and watch import for --map)
 * becomes an import of that entry. What the command table shares with the commands (cli/define.js,
 * cli/version.js, the limits) is in both builds: constants, functions and an error class nobody tells apart by
 * instanceof.
 */
const SPLIT_FROM = /[\\/]dist[\\/]src[\\/]cli[\\/]commands[\\/]/;
const commandBuilds = new Map<string, string>();
const splitCommands: esbuild.Plugin = {
  name: 'split-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import' || !SPLIT_FROM.test(args.importer)) return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      const name = path.basename(target, '.js');
      const known = commandBuilds.get(name);
      if (known !== undefined && known !== target) throw new Error(`${known} and ${target} would both be dist/bin/${name}.js`);
      commandBuilds.set(name, target);
      return { path: `./${name}.js`, external: true };
    });
  },
};

/** The commands that read no ticket: their entries reach the light base only. */
const LIGHT_COMMANDS = ['check', 'resolve', 'paths'];

/**
 * esbuild gives each set of entry points (and dynamic-import targets) that reach a module a chunk of its own:
 * with a dozen commands, the worker and the pieces imported when needed, validate of one ticket loaded 31 files,
 * and a file costs about as much as compiling 25 KB. So every entry is made to reach the same modules as its
 * kind: each re-exports, as a namespace that loads nothing new at run time, the light commands' modules (the
 * base), and each command that reads tickets and every dynamic-import target also validate's module (the core,
 * with what it imports). The core's modules then have few sets of entries: validate of one ticket loads 9 files
 * (check 7), no more bytes than with a build of its own, and starts as fast (see the commit that made it). The
 * worker stays as it is: a module of top-level code without exports, which a re-export would drop as
 * side-effect free (package.json's sideEffects: false).
 */
function withCore(commands: ReadonlyMap<string, string>): esbuild.Plugin {
  const base = LIGHT_COMMANDS.map((name) => commands.get(name)!);
  const core = commands.get('validate')!;
  return {
    name: 'with-core',
    setup(build) {
      build.onResolve({ filter: /^with-(base|core):/ }, (args) => ({ path: args.path, namespace: 'with-core' }));
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== 'dynamic-import' || args.namespace !== 'file' || !/[\\/]dist[\\/]src[\\/]/.test(args.importer)) return undefined;
        return { path: `with-core:${path.resolve(args.resolveDir, args.path)}`, namespace: 'with-core' };
      });
      build.onLoad({ filter: /.*/, namespace: 'with-core' }, (args) => {
        const [kind, file] = [args.path.slice('with-'.length, 'with-core'.length), args.path.slice('with-core:'.length)];
        const also = (kind === 'core' ? [...base, core] : base).filter((f) => f !== file);
        return {
          contents: [`export * from ${JSON.stringify(file)};`, ...also.map((f, k) => `export * as __with${k} from ${JSON.stringify(f)};`)].join('\n') + '\n',
          loader: 'js',
          resolveDir: path.dirname(file),
        };
      });
    },
  };
}

const options: esbuild.BuildOptions & { write: false; metafile: true } = {
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['pdfjs-dist', '@napi-rs/xattr'],
  plugins: [splitCommands, relocateUrls, yargsLocales, yargsHelpCache, jsoncDefault, asciiWidth, lazyXmlParser],
  minifyWhitespace: true,
  write: false,
  metafile: true,
  logLevel: 'warning',
};
// The bundle in dist/bin/ (emptied first: chunk names change with their content): the command table (with
// yargs a chunk of its own), the worker, then each command; the chunks of each build are named after it.
const results: esbuild.BuildResult<{ write: false; metafile: true }>[] = [await esbuild.build({ ...options, entryPoints: { 'jdf-filespec': ENTRIES['jdf-filespec']! } })];
if (commandBuilds.size < 10) throw new Error(`the command table imports ${commandBuilds.size} command modules: see splitCommands`);
if (LIGHT_COMMANDS.some((name) => !commandBuilds.has(name)) || !commandBuilds.has('validate')) throw new Error('a light command or validate is missing: see withCore');
const entries = Object.fromEntries([...commandBuilds].map(([name, file]) => [name, `with-${LIGHT_COMMANDS.includes(name) ? 'base' : 'core'}:${file}`]));
results.push(await esbuild.build({ ...options, entryPoints: { 'batch-worker': ENTRIES['batch-worker']!, ...entries }, chunkNames: 'shared-[hash]', plugins: [withCore(commandBuilds), ...options.plugins!] }));
if (xmlParserSource === undefined) throw new Error('nothing imports fast-xml-parser: see lazyXmlParser');
const xmlParser = await esbuild.build({
  entryPoints: [xmlParserSource],
  outfile: path.join(outdir, XML_PARSER_FILE),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  write: false,
  metafile: true,
  logLevel: 'warning',
});
const files = new Map<string, string>();
for (const f of [...results.flatMap((r) => r.outputFiles), ...xmlParser.outputFiles]) {
  if (files.has(f.path) && files.get(f.path) !== f.text) throw new Error(`two builds write ${path.basename(f.path)}`);
  files.set(f.path, f.text);
}
for (const [file, text] of files) {
  if (!file.endsWith('.js')) continue;
  if (/__require\(\s*["']\.{1,2}\//.test(text)) throw new Error(`${path.basename(file)} requires a relative path at run time: a dependency esbuild could not follow`);
  if (!REQUIRE_HELPER.test(text)) continue;
  const hashbang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
  files.set(file, hashbang + NODE_REQUIRE + text.slice(hashbang.length));
}
rmSync(outdir, { recursive: true, force: true });
mkdirSync(path.join(outdir, 'locales'), { recursive: true });
for (const [file, text] of files) writeFileSync(file, text, text.startsWith('#!') ? { mode: 0o755 } : {});
const locales = path.join(path.dirname(require.resolve('yargs/package.json')), 'locales/en.json');
copyFileSync(locales, path.join(outdir, 'locales/en.json'));
// Every file the bundle names relative to itself is there.
for (const [file, text] of files) {
  for (const m of text.matchAll(/new URL\((?:"([^"]+)"|'([^']+)'),\s*import\.meta\.url\)/g)) {
    const relative = m[1] ?? m[2]!;
    if (!existsSync(path.resolve(outdir, relative))) throw new Error(`${path.basename(file)} names ${relative}, which is not there from dist/bin/`);
  }
  if (/new URL\([^"'\s)][^)]*,\s*import\.meta\.url\)/.test(text)) throw new Error(`${path.basename(file)} makes a URL from import.meta.url out of something other than a string: see that it still finds its file`);
}
// What this bundle was made from (the files esbuild read, this script, yargs' strings, esbuild's version): npm run build skips the
// next bundle while none of it changes (bundle-if-changed.ts).
const read = [...results, xmlParser].flatMap((r) => Object.keys(r.metafile.inputs)).filter((input) => !input.includes(':'));
const sources = Object.fromEntries([...results, xmlParser].flatMap((r) => Object.entries(r.metafile.outputs))
  .map(([file, output]) => [path.basename(file), Object.keys(output.inputs).filter((input) => output.inputs[input]!.bytesInOutput > 0)]));
writeStamp(outdir, [...read, fileURLToPath(import.meta.url), locales, require.resolve('esbuild/package.json')], [...files.keys(), path.join(outdir, 'locales/en.json')], sources);
