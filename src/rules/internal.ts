// A failure of ours, reported on the ticket it happened on, so that one ticket cannot cost the whole report.
import { filesRule } from './files.js';
import { sev } from './helpers.js';

export const internalError = filesRule({
  code: 'internal-error', title: 'jdf-filespec failed on this ticket', spec: 'jdf-filespec',
  description: 'Checking this ticket raised an error inside jdf-filespec (a bug of ours, or a limit of the JavaScript engine). The ticket is not checked; the other tickets are. Run again with --debug for the stack trace, and report it.',
  severity: sev('error', 'error', 'error'), flagged: 'a ticket that makes the checker throw', clean: 'any ticket it checks',
}, (a) => `jdf-filespec could not check this ticket: ${a.error}${a.stack ? `\n${a.stack}` : ''}`);

export const internalRules = [internalError];
