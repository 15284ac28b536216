import { readFileSync } from 'node:fs';
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

test.run();
