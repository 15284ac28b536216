// A value that holds a placeholder is a template a tool fills in before the ticket is used, not a URL: its
// syntax is not judged and nothing in it is fixed (checkUrl reports this finding alone; src/checker/session.ts).
import { KIND } from './facts.js';
import { examples, sev } from './helpers.js';
import { PLACEHOLDER_FORMS, type PlaceholderForm } from './template-forms.js';
import type { Rule } from './types.js';

/** The first placeholder in `text`, of the first form that has one (template-forms.ts), or undefined. */
export function placeholderIn(text: string): { form: PlaceholderForm; index: number; text: string } | undefined {
  for (const form of PLACEHOLDER_FORMS) {
    if (text.indexOf(form.hint) === -1) continue;
    const m = form.pattern.exec(text);
    if (m !== null) return { form, index: m.index, text: m[0] };
  }
  return undefined;
}

export const templatePlaceholder: Rule = {
  meta: {
    code: 'template-placeholder',
    title: 'Template, not a URL',
    description: "The value holds a placeholder that a tool fills in before the ticket is used (`$$NAME$$`, `${name}`, or a sentence in capitals such as 'WILL BE SET BY ALCES'), so it is a template rather than a URL: this finding is its only one, no rule judges its syntax and nothing in it is fixed. The forms, and the tickets each was seen in, are data (src/rules/template-forms.ts); `{{name}}` and `%NAME%` are not among them, as no ticket of the corpus shows them.",
    spec: 'jdf-filespec (placeholder forms: src/rules/template-forms.ts)',
    severity: sev('info', 'info', 'info'),
    fixable: false,
    examples: examples(
      [{ value: 'file:$$_PATH_$$/a.pdf', offset: 5 }, { value: 'http://${alces.host}:${alces.port}/jmf', offset: 7 }, { value: 'WILL BE SET BY ALCES', offset: 0 }],
      [{ value: 'file:///c:/jobs/$1/a.pdf' }, { value: 'file:///c:/jobs/a$$.pdf' }, { value: 'file:///c:/Will be set by hand.pdf' }],
    ),
  },
  message: (a) => `This value is a template: ${a.placeholder} is a placeholder (${a.form}) that a tool fills in before the ticket is used; its syntax is not checked and nothing is fixed.`,
  check(ctx, report) {
    // Every form holds a '$' or a space (template-forms.ts): most values hold neither, and one look settles them.
    if (!ctx.facts.has(KIND.space) && ctx.core.indexOf('$') === -1) return;
    const found = placeholderIn(ctx.core);
    if (found === undefined) return;
    report({ offset: ctx.lead + found.index, args: { placeholder: `'${found.text}'`, form: found.form.form } });
  },
};
