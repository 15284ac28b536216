import { characterRules, surroundingWhitespace } from './characters.js';
import { directoryRules } from './directory.js';
import { resolutionRules } from './resolution.js';
import { structureRules } from './structure.js';
import { ticketRules } from './ticket.js';
import { filesRules } from './files.js';
import { markupRules } from './markup.js';
import { packageRules } from './package.js';
import { viewsRules } from './views.js';
import { internalRules } from './internal.js';
import { integrityRules } from './integrity.js';
import type { Rule, RuleMeta } from './types.js';

/**
 * Every rule, in the order their findings are listed and their fixes applied: white space first, then the
 * shape of the reference (scheme, authority, drive, UNC), then characters, then the Directory, then resolution.
 */
export const rules: readonly Rule[] = [
  surroundingWhitespace,
  ...structureRules,
  ...characterRules.filter((r) => r !== surroundingWhitespace),
  ...directoryRules,
  ...resolutionRules,
];

/** Every rule of both scopes: those checkUrl runs on one value, and those validateTicket reports on a ticket. */
export const allRules: readonly Rule[] = [...rules, ...ticketRules, ...markupRules, ...filesRules, ...packageRules, ...viewsRules, ...integrityRules, ...internalRules];

export const rulesByCode: ReadonlyMap<string, Rule> = new Map(allRules.map((r) => [r.meta.code, r]));

/** The rule catalog: stable codes, severities by profile, spec sections, examples. */
export const ruleCatalog: readonly RuleMeta[] = allRules.map((r) => r.meta);
