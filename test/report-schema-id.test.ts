// The JSON report schema's $id is a URL that serves it: the file as the published package ships it (unpkg serves
// any file of a package on npm at https://unpkg.com/NAME/PATH).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const root = fileURLToPath(projectRoot);

test('schemas/report.schema.json: $id is the schema in the published package, which ships schemas/', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const schema = JSON.parse(readFileSync(path.join(root, 'schemas/report.schema.json'), 'utf8'));
  assert.is(schema.$id, `https://unpkg.com/${manifest.name}/schemas/report.schema.json`);
  assert.ok(manifest.files.includes('schemas'));
});

test.run();
