import { characterRules, surroundingWhitespace } from './characters.js';
import { directoryRules } from './directory.js';
import { resolutionRules } from './resolution.js';
import { authorityWithoutPath, emptySegmentAfterHost, fileWithoutAuthority, invalidHost, passwordInUserinfo, portInFileUrl, userinfoInFileUrl } from './authority.js';
import { driveLetterAsHost, driveLetterAsScheme, driveWithoutSlash, rootWithoutDrive, uncInAuthority, uncPathAsUrl, uncPathInPath, verticalLineDrive } from './drive.js';
import { colonInFirstSegment, doubledScheme, emptyUrl, fileRelativePath, schemeSyntax, unknownScheme, urlTooLong } from './scheme.js';
import { dotSegmentInAbsolute, escapedSlash, windowsReservedName } from './segments.js';
import { templatePlaceholder } from './template.js';
import { ticketRules } from './ticket.js';
import { filesRules } from './files.js';
import { markupRules } from './markup.js';
import { xmlDeclaration } from './xml-declaration.js';
import { packageRules } from './package.js';
import { viewsRules } from './views.js';
import { internalRules } from './internal.js';
import { reportLimitRules } from './report-limit.js';
import { integrityRules } from './integrity.js';
import { directiveRules } from './directives.js';
import type { CatalogRule, Rule, RuleMeta } from './types.js';

/**
 * The shape of the reference, from four rooms (scheme.ts, authority.ts, drive.ts, segments.ts) in one order:
 * the order findings are listed and fixes applied, which the fixes depend on (a drive taken as scheme is
 * repaired before the characters after it are judged).
 */
const structureRules: readonly Rule[] = [
  urlTooLong, emptyUrl, driveLetterAsScheme, uncPathAsUrl, colonInFirstSegment, unknownScheme, schemeSyntax, doubledScheme,
  emptySegmentAfterHost, uncInAuthority, uncPathInPath, driveLetterAsHost, driveWithoutSlash, fileWithoutAuthority, fileRelativePath,
  passwordInUserinfo, userinfoInFileUrl, portInFileUrl, invalidHost, authorityWithoutPath, verticalLineDrive, dotSegmentInAbsolute,
  escapedSlash, rootWithoutDrive, windowsReservedName,
];

/**
 * Every rule, in the order their findings are listed and their fixes applied: a template first (when it reports,
 * no other rule runs: src/checker/session.ts), then white space, then the shape of the reference (scheme,
 * authority, drive, UNC), then characters, then the Directory, then resolution.
 */
export const rules: readonly Rule[] = [
  templatePlaceholder,
  surroundingWhitespace,
  ...structureRules,
  ...characterRules.filter((r) => r !== surroundingWhitespace),
  ...directoryRules,
  ...resolutionRules,
];

/** Every rule of both scopes: those checkUrl runs on one value, and those validateTicket reports on a ticket. */
export const allRules: readonly CatalogRule[] = [...rules, ...ticketRules, xmlDeclaration, ...markupRules, ...filesRules, ...packageRules, ...viewsRules, ...integrityRules, ...directiveRules, ...internalRules, ...reportLimitRules];

export const rulesByCode: ReadonlyMap<string, CatalogRule> = new Map(allRules.map((r) => [r.meta.code, r]));

/** The rule catalog: stable codes, severities by profile, spec sections, examples. */
export const ruleCatalog: readonly RuleMeta[] = allRules.map((r) => r.meta);
