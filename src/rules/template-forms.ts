// The placeholder forms that make a value a template rather than a URL (template-placeholder), as data: each with
// where it was seen. A form is added when a real ticket shows it: `npm run corpus` counts what each one matches.

/** Where a form was seen: a project of the shared corpus (../shared/corpus/tickets), its tickets, the values it held. */
export interface Sighting {
  project: string;
  tickets: readonly string[];
  attributes: readonly string[];
  values: number;
}

export interface PlaceholderForm {
  /** The form as the message names it. */
  form: string;
  /** Who writes it. */
  writer: string;
  /** What every placeholder of the form holds: the pattern is tried only on a value that holds it. */
  hint: string;
  /** A placeholder of this form in the value. */
  pattern: RegExp;
  seen: readonly Sighting[];
}

export const PLACEHOLDER_FORMS: readonly PlaceholderForm[] = [
  {
    form: '$$NAME$$',
    writer: "xJdfLib's test tickets (a path the test fills in)",
    hint: '$$',
    pattern: /\$\$[A-Za-z0-9_.-]+\$\$/,
    seen: [{
      project: 'cip4/xJdfLib',
      tickets: ['src/test/resources/org/cip4/lib/xjdf/layout.jdf', 'src/test/resources/org/cip4/lib/xjdf/JDF_15095309_03_A10_ST_300ma_1000_1-1.3.xjdf'],
      attributes: ['FileSpec/@URL'],
      values: 174,
    }],
  },
  {
    form: '${name}',
    writer: 'Ant, Maven and Spring property syntax, as Alces writes its test messages',
    hint: '${',
    pattern: /\$\{[A-Za-z_][A-Za-z0-9_.-]*\}/,
    seen: [{
      project: 'cip4/Alces',
      tickets: ['src/test/data/VariablesPreprocessorTest/Status-Subscription.jmf'],
      attributes: ['Subscription/@URL'],
      values: 1,
    }],
  },
  {
    form: 'a sentence in capitals saying who will set the value',
    writer: "Alces's message templates ('WILL BE SET BY ALCES')",
    hint: 'WILL BE ',
    pattern: /^(?:[A-Z]+ )*WILL BE (?:SET|REPLACED) BY [A-Z0-9]+(?: [A-Z0-9]+)*$/,
    seen: [{
      project: 'cip4/Alces',
      tickets: [
        'src/conf/jmf_templates/CommandResubmitQueueEntry.xml', 'src/conf/jmf_templates/CommandStopPersistentChannel.xml',
        'src/conf/jmf_templates/CommandSubmitQueueEntry.xml', 'src/conf/jmf_templates/Template_SubmitQueueEntry.xml',
      ],
      attributes: ['StopPersChParams/@URL', 'QueueSubmissionParams/@URL', 'ResubmissionParams/@URL'],
      values: 5,
    }],
  },
];

/**
 * Forms looked for and not adopted, and why: a form is adopted when a real ticket shows it, and never where it
 * would hide what a real URL gets wrong.
 */
export const NOT_ADOPTED: ReadonlyArray<{ form: string; why: string }> = [
  { form: '{{name}}', why: 'Mustache and Jinja syntax: no ticket of the corpus holds it in any attribute.' },
  { form: '%NAME%', why: 'Windows environment syntax: no ticket of the corpus holds it, and it overlaps escapes (%DE in %DEST% is one).' },
];
