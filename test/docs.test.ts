import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ruleCatalog } from '../src/index.js';
import { renderRuleCodes, renderRulesDoc } from '../src/rules/doc.js';
import { projectRoot } from './helpers.js';

test('docs/rules.md is what the catalog generates (run `npm run docs` when this fails)', () => {
  const committed = readFileSync(new URL('docs/rules.md', projectRoot), 'utf8');
  assert.ok(committed === renderRulesDoc(ruleCatalog), 'docs/rules.md is stale: run npm run docs');
});

test('src/rules/codes.ts (the RuleCode union) is what the catalog generates (run `npm run docs` when this fails)', () => {
  const committed = readFileSync(new URL('src/rules/codes.ts', projectRoot), 'utf8');
  assert.ok(committed === renderRuleCodes(ruleCatalog), 'src/rules/codes.ts is stale: run npm run docs');
});

test('docs/rules.md has a section for every rule code of the catalog, and the README links to it', () => {
  const doc = readFileSync(new URL('docs/rules.md', projectRoot), 'utf8');
  const sections = new Set([...doc.matchAll(/^## ([a-z0-9-]+)$/gm)].map((m) => m[1]));
  for (const m of ruleCatalog) assert.ok(sections.has(m.code), `no section for ${m.code}`);
  assert.is(sections.size, ruleCatalog.length, 'a section for a code the catalog does not have');
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  assert.ok(readme.includes('[docs/rules.md](docs/rules.md)'), 'the README links to docs/rules.md');
});

test('the README names the CLI commands', () => {
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  for (const cmd of ['npm install && npm start', 'npm test', 'jdf-filespec check', 'jdf-filespec resolve', 'jdf-filespec validate']) assert.ok(readme.includes(cmd), cmd);
});

/** Paths a Markdown text names under the project's folders: in backticks, and at the start of a line of a fenced block (a tree). */
function namedPaths(markdown: string): string[] {
  const folders = '(?:src|test|site|scripts|data|schemas|bench)/';
  const inline = [...markdown.matchAll(new RegExp(`\`(${folders}[^\`\\s]*)\``, 'g'))].map((m) => m[1]!);
  const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split('\n'));
  const trees = blocks.map((line) => new RegExp(`^(${folders}\\S*)`).exec(line)?.[1]).filter((x) => x !== undefined);
  return [...new Set([...inline, ...trees])];
}

test('every path docs/architecture.md and the README\'s "How it is built" tree name exists', () => {
  const architecture = readFileSync(new URL('docs/architecture.md', projectRoot), 'utf8');
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  const tree = readme.slice(readme.indexOf('## How it is built'), readme.indexOf('\n## ', readme.indexOf('## How it is built') + 1));
  const paths = [...namedPaths(architecture), ...namedPaths(tree)];
  assert.ok(paths.length > 40, `found only ${paths.length} paths: has the reader stopped finding them?`);
  const missing = paths.filter((p) => !existsSync(new URL(p, projectRoot)));
  assert.equal(missing, [], 'named but not there');
  assert.ok(readme.includes('[docs/architecture.md](docs/architecture.md)'), 'the README links to docs/architecture.md');
});

test.run();
