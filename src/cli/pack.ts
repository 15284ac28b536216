// jdf-filespec pack: report what was packed, or why nothing was written.
import { parseMap } from '../node/local-files.js';
import { packJob, type PackOptions } from '../node/package-pack.js';
import { plural } from '../report/check-text.js';

export async function runPack(run: Omit<PackOptions, 'maps'> & { ticket: string; maps: string[] }): Promise<number> {
  let result;
  try {
    result = await packJob(run.ticket, { ...run, maps: run.maps.map(parseMap) });
  } catch (error) {
    process.stderr.write(`jdf-filespec: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  for (const p of result.problems) {
    const what = p.ticket ? '' : `${JSON.stringify(p.value)}${p.path !== undefined ? ` (${p.path})` : ''} `;
    process.stdout.write(`${run.ticket}:${p.line}:${p.column}: ${result.written ? 'not packed' : 'error'}: ${what}${p.reason}\n`);
  }
  if (!result.written) {
    // --allow-missing helps where references are the problem, never where the ticket itself is.
    const hint = result.problems.length > 0 && !run.allowMissing && !result.problems.some((p) => p.ticket);
    process.stdout.write(`No package written${hint ? ': every referenced file must be packed (--allow-missing packs the rest)' : ''}.\n`);
    return 1;
  }
  for (const f of result.files) process.stdout.write(`  ${f.reference}  <-  ${f.path}${f.references > 1 ? ` (${f.references} references)` : ''}\n`);
  process.stdout.write(`${run.output}: the ticket and ${plural(result.files.length, 'file')}\n`);
  return 0;
}
