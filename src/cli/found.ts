// In folder mode only tickets are reported, as ESLint lints only the files it is meant to: an XML file that a
// folder's search found and whose root is not a ticket (a pom.xml, an editor's settings) is left out, said with
// --debug. Named on the command line or matched by a pattern, it is reported (not-a-ticket).
import type { TicketSource } from '../node/files.js';
import type { FileReport } from '../report/report.js';

/** The reports less those of found files that are not tickets; `emptied`: the folders that then found none. */
export function foundTicketsOnly(files: readonly FileReport[], sources: readonly TicketSource[], debug: boolean): { files: FileReport[]; emptied: string[] } {
  return foundOnly(files, sources, debug, (file) => (file.part === undefined && file.package === undefined ? file.findings.find((f) => f.code === 'not-a-ticket')?.message : undefined));
}

/** foundTicketsOnly of reports or formatted files (formatFile), each file's not-a-ticket message told by `notTicket`. */
export function foundOnly<F extends { path: string }>(files: readonly F[], sources: readonly TicketSource[], debug: boolean, notTicket: (file: F) => string | undefined): { files: F[]; emptied: string[] } {
  const foundIn = new Map(sources.filter((s) => s.foundIn !== undefined).map((s) => [s.path, s.foundIn!]));
  if (foundIn.size === 0) return { files: [...files], emptied: [] };
  const kept: F[] = [];
  const left = new Map<string, boolean>();
  for (const file of files) {
    const folder = foundIn.get(file.path);
    const message = folder !== undefined ? notTicket(file) : undefined;
    if (folder !== undefined && message !== undefined) {
      if (debug) process.stderr.write(`jdf-filespec: skipped ${file.path}, found in ${folder}: ${message.replace(/;.*$/, '')} (name it to check it)\n`);
      if (!left.has(folder)) left.set(folder, false);
      continue;
    }
    if (folder !== undefined) left.set(folder, true);
    kept.push(file);
  }
  return { files: kept, emptied: [...left].filter(([, any]) => !any).map(([folder]) => folder) };
}
