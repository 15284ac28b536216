// Values a fix made whose only fault is their spaces (file://\\srv\share\my docs\a.pdf fixed to
// file://srv/share/my docs/a.pdf): what the rules say of one, known without taking it apart.
import { findingOf, severityUnder } from '../rules/finding.js';
import { unescapedSpace } from '../rules/characters.js';
import { showChar } from '../rules/helpers.js';
import type { CheckOptions } from '../rules/types.js';
import { isQuiet } from './plain.js';
import type { Fixes } from './session.js';

/**
 * The findings of a value with spaces inside it (none at its ends: surrounding-whitespace reads those) that no rule
 * can report on once each space is %20 (plain.ts): unescaped-space alone (JDF appendix Table 4 example 23), as
 * its check reports it, its clean fix taken as it is. Undefined for any other value.
 */
export function spacesOnly(value: string, options: CheckOptions): Fixes | undefined {
  const first = value.indexOf(' ');
  if (first <= 0 || value.charCodeAt(value.length - 1) === 0x20) return undefined;
  const last = value.lastIndexOf(' ');
  const text = value.slice(first, last + 1).replaceAll(' ', '%20');
  const fix = value.slice(0, first) + text + value.slice(last + 1);
  if (!isQuiet(fix, options)) return undefined;
  let count = 0;
  for (let i = first; i !== -1; i = value.indexOf(' ', i + 1)) count++;
  const severity = severityUnder(unescapedSpace.meta, options.profile ?? 'jdf');
  if (severity === null) return undefined;
  const finding = findingOf(unescapedSpace, { count, char: showChar(' ') }, severity, first, fix);
  return { findings: [finding], recheck: [], edits: [{ start: first, end: last + 1, text }] };
}
