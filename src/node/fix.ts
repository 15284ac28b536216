// jdf-filespec fix: apply the safe fixes to ticket files, atomically, keeping every other byte.
import { chmod, copyFile, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { redactPassword } from '../fileurl/redact.js';
import { decodeTicket } from '../ticket/decode.js';
import { applyEdits, planFixes, type FixPlan } from '../ticket/rewrite.js';
import { validateTicket, type ValidateOptions } from '../ticket/validate.js';

export interface FixOutcome {
  path: string;
  plan: FixPlan;
  /** The decoded text the plan refers to (for the diff). */
  text: string;
  written: boolean;
  backup?: string;
  /** Why nothing could be fixed in this file, if so. */
  refused?: string;
}

export interface FixOptions {
  dryRun: boolean;
  backup: boolean;
  validate: ValidateOptions;
}

export async function fixFile(file: string, options: FixOptions): Promise<FixOutcome> {
  const bytes = new Uint8Array(await readFile(file));
  const decoded = decodeTicket(bytes);
  const empty: FixPlan = { edits: [], skipped: [] };
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) {
    return { path: file, plan: empty, text: decoded.text, written: false, refused: 'the file does not decode in its declared encoding' };
  }
  const report = validateTicket(bytes, { ...options.validate, documentUri: pathToFileURL(path.resolve(file)).href });
  if (report.findings.some((f) => f.code === 'xml-malformed' || f.code === 'xml-too-deep' || f.code === 'file-too-large')) {
    return { path: file, plan: empty, text: decoded.text, written: false, refused: 'the XML is not well-formed' };
  }
  const plan = planFixes(decoded.text, report);
  for (const e of plan.edits) {
    e.from = redactPassword(e.from);
  }
  if (plan.edits.length === 0 || options.dryRun) return { path: file, plan, text: decoded.text, written: false };
  const fixed = applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, plan.edits);
  const outcome: FixOutcome = { path: file, plan, text: decoded.text, written: true };
  if (options.backup) {
    outcome.backup = `${file}.orig`;
    await copyFile(file, outcome.backup);
  }
  // Atomic: a temporary file beside the ticket, with its mode, renamed over it.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.jdf-filespec-${process.pid}.tmp`);
  try {
    await writeFile(temp, fixed, { flag: 'wx' });
    await chmod(temp, (await stat(file)).mode & 0o7777);
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return outcome;
}
