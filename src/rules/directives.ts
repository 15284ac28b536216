// Findings about the ticket's own inline directives (<!-- jdf-filespec-disable CODE -->): read by
// src/ticket/directives.ts, applied by src/ticket/silence.ts.
import { sev } from './helpers.js';
import { ticketRule } from './ticket.js';

const fs = (before: string, url = 'file:///C:/Jobs/a%20b.pdf') => `<JDF Version="1.4"><ResourcePool>${before}<FileSpec URL="${url}"/></ResourcePool></JDF>`;

export const unknownRuleInDirective = ticketRule({
  code: 'unknown-rule-in-directive', title: 'Directive names no rule', spec: 'jdf-filespec',
  description: 'An inline directive (jdf-filespec-disable-next-line, jdf-filespec-disable, jdf-filespec-enable) names a code that is no rule of jdf-filespec, often a typing mistake: it silences nothing for that name. The message names the nearest rule code.',
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  flagged: [fs('<!-- jdf-filespec-disable-next-line unescaped-spaces -->', 'file:///C:/Jobs/a b.pdf')],
  clean: [fs('<!-- jdf-filespec-disable-next-line unescaped-space - the RIP takes raw spaces -->', 'file:///C:/Jobs/a b.pdf'), fs('<!-- jdf-filespec-disable-next-line -->', 'file:///C:/Jobs/a b.pdf')],
}, (a) => `The directive ${a.directive} names '${a.name}', which is no rule of jdf-filespec${a.near ? ` (did you mean '${a.near}'?)` : ''}; it silences nothing for that name.`);

export const unusedDisableDirective = ticketRule({
  code: 'unused-disable-directive', title: 'Directive silences nothing', spec: 'jdf-filespec',
  description: 'A jdf-filespec-disable-next-line or jdf-filespec-disable directive silences no finding (of the rules it names): the problem it was written for is gone, or it stands in the wrong place. Reported only when asked (validate --report-unused-disable-directives, the reportUnusedDisableDirectives option), as ESLint does.',
  severity: sev('warning', 'warning', 'warning'), fixable: false,
  // Reported only with the option (test/rules.test.ts validates the examples with it).
  flagged: [fs('<!-- jdf-filespec-disable-next-line unescaped-space -->'), fs('<!-- jdf-filespec-disable -->')],
  clean: [fs('<!-- jdf-filespec-disable-next-line unescaped-space -->', 'file:///C:/Jobs/a b.pdf')],
}, (a) => `This ${a.directive} directive silences no finding${a.codes ? ` of ${a.codes}` : ''}; remove it.`);

export const directiveRules = [unknownRuleInDirective, unusedDisableDirective];
