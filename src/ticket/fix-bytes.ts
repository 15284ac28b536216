// The safe fixes of one ticket as new bytes, with no file system: what `fix` writes, for a browser or any caller.
import { redactPassword } from '../fileurl/redact.js';
import { decodeTicket } from './decode.js';
import { applyEdits, planFixes, type FixPlan } from './rewrite.js';
import { validateTicket, type ValidateOptions } from './validate.js';

export interface BytesFix {
  plan: FixPlan;
  /** The decoded text the plan refers to (for the diff). */
  text: string;
  /** The fixed ticket, identical to the input outside the changed values; absent when nothing changes or the file is refused. */
  fixed?: Uint8Array;
  /** Why nothing could be fixed, if so. */
  refused?: string;
}

/** Findings that leave no tree to fix. */
const UNFIXABLE = new Set(['xml-malformed', 'xml-too-deep', 'file-too-large']);

/** Plans and applies the safe fixes to a ticket's bytes (the same plan as `jdf-filespec fix`); never throws. */
export function fixTicketBytes(bytes: Uint8Array, options: ValidateOptions = {}): BytesFix {
  const decoded = decodeTicket(bytes);
  const empty: FixPlan = { edits: [], skipped: [] };
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) {
    return { plan: empty, text: decoded.text, refused: 'the file does not decode in its declared encoding' };
  }
  const report = validateTicket(bytes, options);
  if (report.findings.some((f) => UNFIXABLE.has(f.code))) {
    return { plan: empty, text: decoded.text, refused: 'the XML is not well-formed' };
  }
  const plan = planFixes(decoded.text, report);
  for (const e of plan.edits) e.from = redactPassword(e.from);
  if (plan.edits.length === 0) return { plan, text: decoded.text };
  const fixed = applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, plan.edits);
  return { plan, text: decoded.text, fixed };
}
