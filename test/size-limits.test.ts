// Short enough to read at once (issue 30): scripts/size-check.ts finds no function in src/ over 80 lines and no
// file over 350 lines without a `// Long because:` line at its top, and it does find them in made-up sources.
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { longFile, longFunctions, oversized } from '../scripts/size-check.js';
import { projectRoot } from './helpers.js';

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

test('a function of 81 lines is over, one of 80 is not; a reason in the comment above it lets it be', () => {
  // 79 body lines and the two lines of its braces: 81 lines in all.
  const long = `export function f(): void {\n${body(79)}\n}\n`;
  assert.equal(longFunctions('x.ts', long).map((o) => [o.name, o.lines]), [['f', 81]]);
  assert.equal(longFunctions('x.ts', `const g = () => {\n${body(78)}\n};\n`), []);
  assert.equal(longFunctions('x.ts', `class C {\n  m(): void {\n${body(79)}\n  }\n}\n`).map((o) => [o.name, o.lines, o.line]), [['m', 81, 2]]);
  assert.equal(longFunctions('x.ts', `// Long because: a table.\n${long}`), []);
});

test('a file of 351 lines is over unless one of its first lines says why', () => {
  const text = `${'// a line\n'.repeat(351)}`;
  assert.is(longFile('x.ts', text)?.lines, 351);
  assert.is(longFile('x.ts', '// a line\n'.repeat(350)), undefined);
  assert.is(longFile('x.ts', `// What it is.\n// Long because: one table of the spec.\n${text}`), undefined);
  assert.is(longFile('x.ts', `${text}// Long because: said too late.\n`)?.name, '<file>');
});

test('src/ has no function over 80 lines and no file over 350 lines without a reason at its top', () => {
  const found = oversized(fileURLToPath(projectRoot)).map((o) => `${o.file}:${o.line} ${o.name} (${o.lines} lines)`);
  assert.equal(found, [], found.join('\n'));
});

test.run();
