// One cause, one finding: the pairs of rules that fire together on one value (`npm run corpus` lists the pairs it
// meets), each settled here with the reason. A pair is one cause when the fix the cause's finding asks for removes
// the other finding too; then the cause's finding is the one reported, and what the other would have said goes
// into its arguments. Pairs whose fixes are separate edits are two causes, and both are reported.
import type { RuleCode } from './codes.js';
import type { Finding } from './types.js';

export interface OneCause {
  cause: RuleCode;
  effect: RuleCode;
  /** Whether this finding of the cause accounts for the effect (its fix removes it). */
  accounts: (cause: Finding) => boolean;
  why: string;
}

/** A fix that writes every separator "/": no backslash left for the backslash rule. */
const fixWritesNoBackslash = (f: Finding): boolean => f.fix !== undefined && f.fix.indexOf('\\') === -1;

/** checkUrl's pairs: the effect's finding is not reported where the cause's accounts for it. */
export const ONE_CAUSE: readonly OneCause[] = [
  {
    cause: 'unc-in-authority', effect: 'backslash', accounts: fixWritesNoBackslash,
    why: "file://\\\\server\\share\\a.pdf: the backslashes are the UNC path's own separators, and the UNC fix writes each as '/' (file://server/share/a.pdf).",
  },
  {
    cause: 'unc-path-as-url', effect: 'backslash', accounts: fixWritesNoBackslash,
    why: "\\\\server\\share\\a.pdf: the backslashes are the UNC path's own separators, and the UNC fix writes each as '/' (file://server/share/a.pdf); the backslash fix alone would give //server/share/a.pdf.",
  },
];

/**
 * The reference rules' pairs (src/rules/ticket.ts): consumers-disagree on a value whose readings differ only because
 * of its backslashes (with every "\" written "/", they agree) has the finding of those backslashes as its cause,
 * and the readings go into that finding's arguments (`readings`).
 */
export const READINGS_GO_TO: readonly RuleCode[] = ['backslash', 'unc-path-as-url'];

/** Pairs met on the corpus and kept as two findings: each fix is a separate edit, and each occurs alone. */
export const TWO_CAUSES: ReadonlyArray<{ pair: [RuleCode, RuleCode]; why: string }> = [
  { pair: ['backslash', 'drive-letter-as-host'], why: 'File://D:\\x\\a.pdf: moving the drive into the path (file:///D:\\x\\a.pdf) leaves the backslashes; Table 4 has each alone (#22, #24).' },
  { pair: ['backslash', 'drive-letter-as-scheme'], why: 'E:\\x\\a.pdf: writing it as a file URL (file:///E:\\x\\a.pdf) leaves the backslashes, and replacing them (E:/x/a.pdf) leaves the drive read as a scheme.' },
  { pair: ['file-without-authority', 'root-without-drive'], why: 'file:/Users/a.pdf: file:///Users/a.pdf still names no drive for a Windows consumer (Table 4 #21 and #26 are separate examples).' },
  { pair: ['backslash', 'unescaped-space'], why: 'Two characters, two escapes: a name with a space and a "\\" separator.' },
  { pair: ['unc-in-authority', 'unescaped-space'], why: 'The UNC fix writes the separators; the space in a name still needs %20.' },
  { pair: ['drive-letter-as-host', 'unescaped-space'], why: 'Moving the drive leaves the space.' },
  { pair: ['directory-without-trailing-slash', 'non-ascii'], why: 'Adding the "/" leaves the raw character; escaping it leaves the Directory without its "/".' },
  { pair: ['directory-without-trailing-slash', 'file-without-authority'], why: 'Each fix is a separate edit at either end of the value.' },
  { pair: ['directory-without-trailing-slash', 'root-without-drive'], why: 'Each fix is a separate edit; root-without-drive has none.' },
  { pair: ['file-without-authority', 'non-ascii'], why: 'Adding "//" leaves the raw character.' },
  { pair: ['non-ascii', 'root-without-drive'], why: 'Escaping the character leaves the path without a drive.' },
  { pair: ['invalid-escaped-octets', 'non-ascii'], why: 'http://host/D%FCrst/öäß.pdf: the Latin-1 escape and the raw characters are separate spellings; escaping the raw ones leaves %FC.' },
];

/** Whether `f` is an effect whose cause is among `findings` (ONE_CAUSE). */
export function isEffect(f: Finding, findings: readonly Finding[]): boolean {
  for (const pair of ONE_CAUSE) {
    if (pair.effect !== f.code) continue;
    for (const c of findings) if (c.code === pair.cause && pair.accounts(c)) return true;
  }
  return false;
}
