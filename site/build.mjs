// npm run site: builds the page into site/dist/ (index.html with its script and styles inside, rules.html).
// One self-contained file opens from disk as well as from any static host; its Content-Security-Policy allows
// only its own inline script and style (by hash) and a worker made from them, so nothing else can load.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { marked } from 'marked';

const here = new URL('./', import.meta.url);
const out = new URL('dist/', here);
/** The budget for the page's JavaScript, gzipped. */
const BUDGET = 150 * 1024;

/**
 * The config schema's validator, made by Ajv now (the page's policy refuses the new Function that Ajv compiles
 * with), with the options src/config/parse.ts compiles it with: the same checks, the same errors.
 */
function configValidatorSource() {
  const require = createRequire(import.meta.url);
  const { Ajv } = require('ajv');
  const standaloneCode = require('ajv/dist/standalone').default;
  const schema = JSON.parse(readFileSync(new URL('../schemas/config.schema.json', here), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: true, code: { source: true, esm: true } });
  return standaloneCode(ajv, ajv.compile(schema));
}

/** Smaller stand-ins for two of whatwg-url's dependencies (see src/shims/), and the generated config validator. */
const shims = {
  name: 'shims',
  setup(build) {
    const to = (file) => () => ({ path: new URL(`src/shims/${file}`, here).pathname });
    build.onResolve({ filter: /^tr46$/ }, to('tr46.ts'));
    build.onResolve({ filter: /^@exodus\/bytes\/whatwg\.js$/ }, to('percent.ts'));
    build.onResolve({ filter: /^@exodus\/bytes\/encoding\.js$/ }, to('empty.ts'));
    // jsonc-parser's ES module has no default export, which src/config/check.ts imports (Node gives the CommonJS one's).
    build.onResolve({ filter: /^jsonc-parser$/ }, (args) => (args.importer.endsWith('jsonc-parser.ts') ? undefined : to('jsonc-parser.ts')()));
    build.onResolve({ filter: /\/config-validator\.js$/ }, () => ({ path: 'config-validator', namespace: 'generated' }));
    build.onLoad({ filter: /^config-validator$/, namespace: 'generated' }, () => ({ contents: configValidatorSource(), loader: 'js', resolveDir: new URL('..', here).pathname }));
  },
};

const bundle = async (entry, extra = {}) => {
  const result = await esbuild.build({
    entryPoints: [new URL(entry, here).pathname], bundle: true, write: false, format: 'iife', platform: 'browser',
    target: 'es2022', minify: true, legalComments: 'none', plugins: [shims], ...extra,
  });
  return result.outputFiles[0].text.trim();
};

const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page's policy: nothing from anywhere, but its own inline script and style and the blob worker they make. */
const policy = (script, style) =>
  [`default-src 'none'`, script ? `script-src ${hash(script)}` : '', `style-src ${hash(style)}`, script ? `worker-src blob:` : '', `img-src data:`, `base-uri 'none'`, `form-action 'none'`]
    .filter(Boolean).join('; ');

function fill(template, values) {
  // A function replacer: "$" in the script must stay as it is.
  return template.replace(/__([A-Z]+)__/g, (_, key) => {
    if (!(key in values)) throw new Error(`no value for __${key}__`);
    return values[key];
  });
}

function noClosingTags(text, what) {
  if (/<\/(script|style)/i.test(text)) throw new Error(`${what} holds a closing tag and cannot be inlined`);
  return text;
}

// The worker's URL is the Standard's (see src/spec-url.ts), so the library reads URLs here as it does in Node.
const worker = await bundle('src/worker.ts', { inject: ['src/spec-url.ts', 'src/shims/shared-array-buffer.ts'].map((f) => new URL(f, here).pathname) });
const js = noClosingTags(await bundle('src/app.ts', { define: { WORKER_SOURCE: JSON.stringify(worker) } }), 'the script');
const css = noClosingTags((await esbuild.transform(readFileSync(new URL('site.css', here), 'utf8'), { loader: 'css', minify: true })).code.trim(), 'the style');
mkdirSync(out, { recursive: true });
writeFileSync(new URL('index.html', out), fill(readFileSync(new URL('index.html', here), 'utf8'), { CSP: policy(js, css), CSS: css, JS: js }));

// rules.html: docs/rules.md as a page, each rule's heading with its code as id (the findings link there).
const renderer = new marked.Renderer();
renderer.heading = function ({ tokens, depth, text }) {
  const id = text.replace(/`/g, '').trim().toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
};
const rulesBody = marked.parse(readFileSync(new URL('../docs/rules.md', here), 'utf8'), { renderer, async: false });
const rulesCss = noClosingTags((await esbuild.transform(readFileSync(new URL('rules.css', here), 'utf8'), { loader: 'css', minify: true })).code.trim(), 'the rules style');
writeFileSync(
  new URL('rules.html', out),
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
    + `<meta http-equiv="Content-Security-Policy" content="${policy('', rulesCss)}">\n<meta name="referrer" content="no-referrer">\n<link rel="icon" href="data:,">\n`
    + `<title>jdf-filespec rules</title>\n<style>${rulesCss}</style>\n</head>\n<body>\n<p><a href="index.html">\u2190 Back to the page</a></p>\n${rulesBody}</body>\n</html>\n`,
);

const size = { js: Buffer.byteLength(js), jsGzip: gzipSync(js, { level: 9 }).length, worker: Buffer.byteLength(worker), html: Buffer.byteLength(readFileSync(new URL('index.html', out))) };
writeFileSync(new URL('size.json', out), JSON.stringify(size, null, 2) + '\n');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`site/dist/index.html: ${kb(size.html)}; JavaScript ${kb(size.js)} (worker ${kb(size.worker)}), ${kb(size.jsGzip)} gzipped (budget ${kb(BUDGET)})`);
if (size.jsGzip > BUDGET) {
  console.error(`The page's JavaScript is ${kb(size.jsGzip)} gzipped, over the ${kb(BUDGET)} budget.`);
  process.exit(1);
}
