import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ruleCatalog } from '../src/index.js';
import { renderRulesDoc } from '../src/rules/doc.js';
import { projectRoot } from './helpers.js';

test('docs/rules.md is what the catalog generates (run `npm run docs` when this fails)', () => {
  const committed = readFileSync(new URL('docs/rules.md', projectRoot), 'utf8');
  assert.ok(committed === renderRulesDoc(ruleCatalog), 'docs/rules.md is stale: run npm run docs');
});

test('the README lists every rule code of the catalog in docs/rules.md and names the CLI commands', () => {
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  for (const cmd of ['npm install && npm start', 'npm test', 'jdf-filespec check', 'jdf-filespec resolve', 'jdf-filespec validate']) assert.ok(readme.includes(cmd), cmd);
});

test.run();
