// A failure of ours, reported on the ticket it happened on, so that one ticket cannot cost the whole report.
import { filesRule } from './files.js';
import { sev } from './helpers.js';

export const internalError = filesRule({
  code: 'internal-error', title: 'jdf-filespec failed on this ticket', spec: 'jdf-filespec',
  description: 'Checking this ticket raised an error inside jdf-filespec (a bug of ours, or a limit of the JavaScript engine). The ticket is not checked; the other tickets are. Run again with --debug for the stack trace, and report it.',
  severity: sev('error', 'error', 'error'), flagged: 'a ticket that makes the checker throw', clean: 'any ticket it checks',
}, (a) => `jdf-filespec could not check this ticket: ${a.error}${a.stack ? `\n${a.stack}` : ''}`);

export const outOfMemory = filesRule({
  code: 'out-of-memory', title: 'Ticket needs more memory than allowed', spec: 'jdf-filespec',
  description: 'A big ticket is checked in a worker of its own with a memory limit, so that one ticket cannot stop the whole run. This one needed more than that limit (a report costs memory for every reference, most when every reference has a finding), so nothing in it was reported; the other tickets are. Split the ticket, or give Node more memory (NODE_OPTIONS=--max-old-space-size=MB).',
  severity: sev('error', 'error', 'error'), flagged: 'a 120 MB ticket of references that each carry findings, on a machine whose Node has the default 4 GB heap', clean: 'a ticket whose check fits in the limit',
}, (a) => `Checking this ticket (${a.size} bytes) needed more memory than the ${a.limit} MiB a big ticket may use here; nothing in it was reported. Split the ticket, or give Node more memory (NODE_OPTIONS=--max-old-space-size=MB).`);

export const internalRules = [internalError, outOfMemory];

/**
 * A big ticket's worker that failed (its error's code), the ticket's size and the worker's heap limit in MiB:
 * out-of-memory when it ran out of heap, else none (the failure is ours).
 */
export function workerFailure(errorCode: unknown, size: number, limit: number): { code: 'out-of-memory'; args: { size: number; limit: number } } | null {
  return errorCode === 'ERR_WORKER_OUT_OF_MEMORY' ? { code: 'out-of-memory', args: { size, limit } } : null;
}
