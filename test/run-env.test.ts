// test/run.js runs the suites without the user's FORCE_COLOR and NO_COLOR: with FORCE_COLOR=1 exported, every CLI a
// suite starts would colour its text, and validate-cli's text test (which expects plain text in a pipe) failed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const root = fileURLToPath(projectRoot);

test("npm test with FORCE_COLOR=1 exported: validate-cli's text test still passes", () => {
  const r = spawnSync(process.execPath, [path.join(root, 'test/run.js'), '^validate-cli\\.test\\.js$'], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '1', JDF_TEST_JOBS: '1' } });
  assert.is(r.status, 0, r.stdout.slice(-2000));
  assert.match(r.stdout, /^1 files, \d+ tests$/m);
  assert.match(r.stdout, /^\d+ passed, 0 failed$/m);
});

test.run();
