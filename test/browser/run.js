// npm run test:browser: runs the compiled browser suite (dist/test/browser/site.browser.js) and ends, like
// test/run.js, with the line "N passed, N failed" (marked "(browser)"). The exit code is the suite's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const result = spawnSync(process.execPath, [path.join(root, 'dist/test/browser/site.browser.js')], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
const total = Number(/Total:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const code = result.status ?? 1;
const failed = total - passed;
console.log(`${passed} passed, ${code !== 0 && failed === 0 ? 1 : failed} failed (browser)`);
process.exit(code === 0 && total === 0 ? 1 : code);
