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

/**
 * Plans and applies the safe fixes to a ticket (the same plan as `jdf-filespec fix`); never throws. A string
 * (pasted text) is read as `validateTicket` reads it, and the fixed ticket comes back as its UTF-8 bytes.
 */
export function fixTicketBytes(input: Uint8Array | string, options: ValidateOptions = {}): BytesFix {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const decoded = decodeTicket(input);
  const empty: FixPlan = { edits: [], skipped: [] };
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) {
    return { plan: empty, text: decoded.text, refused: 'the file does not decode in its declared encoding' };
  }
  const report = validateTicket(input, options);
  if (report.findings.some((f) => UNFIXABLE.has(f.code))) {
    return { plan: empty, text: decoded.text, refused: 'the XML is not well-formed' };
  }
  const plan = planFixes(decoded.text, report);
  for (const e of plan.edits) e.from = redactPassword(e.from);
  if (plan.edits.length === 0) return { plan, text: decoded.text };
  const fixed = applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, plan.edits);
  return { plan, text: decoded.text, fixed };
}
