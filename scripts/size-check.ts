// Short enough to read at once (issue 30): no function in src/ over 80 lines, no file over 350 lines, unless a
// line says why (`// Long because: ...`): among a file's first lines, or in the comment just above a function.
// test/size-limits.test.ts runs this, so neither drifts back; `node dist/scripts/size-check.js` prints what is over.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 80;
export const MAX_FILE_LINES = 350;
/** A file over MAX_FILE_LINES says why in one of its first lines; a long function, in the comment above it. */
const REASON = /^\s*(?:\/\/|\*) Long because: \S/m;
const REASON_WITHIN = 10;

export interface Oversized {
  file: string;
  /** The function's name (or `<file>` for the file itself), and where it starts. */
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (node as { name?: ts.Node }).name;
  if (named !== undefined) return named.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

/** The functions of one file longer than `max` lines, counted from the line of their start to that of their end. */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): Oversized[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Oversized[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const above = text.slice(node.getFullStart(), node.getStart(source));
      if (end - start + 1 > max && !REASON.test(above)) out.push({ file, name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A file longer than `max` lines without a `// Long because:` line among its first lines; else undefined. */
export function longFile(file: string, text: string, max = MAX_FILE_LINES): Oversized | undefined {
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count <= max || REASON.test(lines.slice(0, REASON_WITHIN).join('\n'))) return undefined;
  return { file, name: '<file>', line: 1, lines: count };
}

/** Everything over the limits under `root`/src, as paths relative to `root`. */
export function oversized(root: string): Oversized[] {
  return sourceFiles(path.join(root, 'src')).flatMap((full) => {
    const file = path.relative(root, full).split(path.sep).join('/');
    const text = readFileSync(full, 'utf8');
    const long = longFile(file, text);
    return [...(long ? [long] : []), ...longFunctions(file, text)];
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const found = oversized(root);
  for (const o of found) console.log(`${o.file}:${o.line}: ${o.name} is ${o.lines} lines (over ${o.name === '<file>' ? MAX_FILE_LINES : MAX_FUNCTION_LINES})`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
