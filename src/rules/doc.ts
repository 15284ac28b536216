import { PROFILES, type RuleExample, type RuleMeta } from './types.js';

const code = (s: string) => `\`${JSON.stringify(s).slice(1, -1).replace(/`/g, '\\`')}\``;

/** An example as the docs show it: the value, its options, and for a flagged URL example where and how it is fixed (the tests check the same). */
function showExample(e: RuleExample): string {
  const opts = e.options ? Object.entries(e.options).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ') : '';
  const pinned = [
    ...(e.offset !== undefined ? [`at ${e.offset}`] : []),
    ...(e.fix === null ? ['no fix'] : e.fix !== undefined ? [`fix ${code(e.fix)}`] : []),
    ...(e.suggestions !== undefined ? [`suggestions ${e.suggestions.map(code).join(', ')}`] : []),
  ].join('; ');
  return `- ${code(e.value)}${opts ? ` (${opts})` : ''}${pinned ? ` → ${pinned}` : ''}`;
}

/** docs/rules.md, made from the catalog only (a test fails when the committed file differs). */
export function renderRulesDoc(catalog: readonly RuleMeta[]): string {
  const out: string[] = [];
  out.push('# Rules', '');
  out.push('<!-- Generated from src/rules by `npm run docs`; do not edit by hand. -->', '');
  out.push('Every finding of `jdf-filespec` has one of these codes. Severity depends on the profile (`--profile`):');
  out.push('`jdf` is the JDF file-URL appendix (the default), `rfc8089` the standard syntax of RFC 8089, `lenient`');
  out.push('accepts the nonstandard forms of RFC 8089 appendix E as warnings. A dash means the profile does not report it.', '');
  out.push('| code | jdf | rfc8089 | lenient | fix | spec |', '| --- | --- | --- | --- | --- | --- |');
  for (const m of catalog) {
    out.push(`| [\`${m.code}\`](#${m.code}) | ${PROFILES.map((p) => m.severity[p] ?? '-').join(' | ')} | ${m.fixable ? 'yes' : 'no'} | ${m.spec} |`);
  }
  out.push('');
  for (const m of catalog) {
    out.push(`## ${m.code}`, '', `**${m.title}.** ${m.description}`, '');
    out.push(`Spec: ${m.spec}. Severity: ${PROFILES.map((p) => `${p} ${m.severity[p] ?? '-'}`).join(', ')}. ${m.fixable ? 'Has a safe fix.' : 'No automatic fix.'}`, '');
    out.push('Flagged:', '', ...m.examples.flagged.map(showExample), '');
    out.push('Not flagged:', '', ...m.examples.clean.map(showExample), '');
  }
  return out.join('\n');
}

/** src/rules/codes.ts, made from the catalog only (a test fails when the committed file differs). */
export function renderRuleCodes(catalog: readonly RuleMeta[]): string {
  return [
    '// Generated from the rule catalog by `npm run docs`; do not edit by hand (test/docs.test.ts fails when it is stale).',
    '// When a new rule\'s code does not compile yet, `node dist/scripts/gen-rules-doc.js` writes this file from the last build.',
    '',
    '/** Every rule code of the catalog, in catalog order. */',
    'export type RuleCode =',
    ...catalog.map((m, i) => `  | '${m.code}'${i === catalog.length - 1 ? ';' : ''}`),
    '',
  ].join('\n');
}
