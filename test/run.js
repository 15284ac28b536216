// Runs every compiled uvu suite (dist/test/**/*.test.js) in one uvu process and ends with the closing line
// "N passed, N failed" that CI reads. The exit code is uvu's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');
const result = spawnSync(process.execPath, [uvu, 'dist/test', '\\.test\\.js$'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
const total = Number(/Total:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const skipped = Number(/Skipped:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const failed = total - passed - skipped;
const code = result.status ?? 1;
console.log(`${passed} passed, ${code !== 0 && failed === 0 ? 1 : failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code === 0 && total === 0 ? 1 : code);
