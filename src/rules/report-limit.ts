// too-many-findings: a report cut short so that the process that receives it survives (src/node/report-pieces.ts).
import { filesRule } from './files.js';
import { sev } from './helpers.js';

export const tooManyFindings = filesRule({
  code: 'too-many-findings', title: 'Report cut: more than this process can hold', spec: 'jdf-filespec',
  description: 'A big ticket is checked in a worker of its own, which sends its report back a piece at a time. When the heap of the thread that receives it is a quarter full, the rest is not taken: the report lists the references and findings received until then, and this finding says how many there were in all. A ticket whose every reference carries findings takes tens of times its size in memory. The other tickets are reported in full. Split the ticket, or give Node more memory (NODE_OPTIONS=--max-old-space-size=MB).',
  severity: sev('error', 'error', 'error'), flagged: 'a 3 MB ticket of 57,000 references that each carry five findings, checked with a 64 MB heap', clean: 'a ticket whose report fits in a quarter of the heap',
}, (a) => `This ticket's report was cut: it lists ${a.listedReferences} of its ${a.references} references${Number(a.findings) > 0 ? ` and ${a.listedFindings} of its ${a.findings} findings about the file` : ''}; the rest would need more memory than the ${a.limit} MiB heap here holds. Split the ticket, or give Node more memory (NODE_OPTIONS=--max-old-space-size=MB).`);

export const reportLimitRules = [tooManyFindings];

/** What a cut report holds and what the whole would have held, and the receiving thread's heap limit in MiB. */
export type ReportCutFacts = {
  listedReferences: number;
  references: number;
  listedFindings: number;
  findings: number;
  limit: number;
};

/** The too-many-findings finding of a report cut short. */
export function reportCut(facts: ReportCutFacts): { code: 'too-many-findings'; args: ReportCutFacts } {
  return { code: 'too-many-findings', args: facts };
}
