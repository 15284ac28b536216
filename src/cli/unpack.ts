// jdf-filespec unpack: what was written where, and what was refused.
import { unpackPackage } from '../node/package-unpack.js';
import { plural } from '../report/check-text.js';

export async function runUnpack(run: { input: string; output: string }): Promise<number> {
  let result;
  try {
    result = await unpackPackage(run.input, run.output);
  } catch (error) {
    process.stderr.write(`jdf-filespec: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  for (const p of result.parts) process.stdout.write(`  ${p.file}  <-  ${p.part}${p.rewritten ? ` (${plural(p.rewritten, 'reference')} rewritten)` : ''}\n`);
  for (const p of result.problems) process.stdout.write(`  refused: ${p}\n`);
  process.stdout.write(`${run.output}: ${plural(result.parts.length, 'part')} written${result.problems.length > 0 ? `, ${plural(result.problems.length, 'problem')}` : ''}\n`);
  return result.problems.length > 0 ? 1 : 0;
}
