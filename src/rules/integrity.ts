// Are the files the right files: what a FileSpec declares against the bytes (validate --check-exists). The
// decisions are here (contentFindings), over the facts src/node/integrity.ts gathers from the file.
import type { RuleCode } from './codes.js';
import { filesRule } from './files.js';
import { sev } from './helpers.js';

export const fileSizeMismatch = filesRule({
  code: 'file-size-mismatch', title: 'FileSize differs from the file', spec: 'JDF 1.7 FileSpec/@FileSize',
  description: 'FileSpec/@FileSize (bytes) is not the size of the file the URL names: a truncated upload, or another file under the same name.',
  severity: sev('error', 'error', 'error'), flagged: 'FileSize="1048576" (the file has 524288 bytes)', clean: 'FileSize="1048576" (the file has 1048576 bytes)',
}, (a) => `FileSize says ${a.declared} bytes, but ${a.path} has ${a.actual}; the file is truncated or not the one the ticket means.`);

export const checksumMismatch = filesRule({
  code: 'checksum-mismatch', title: 'CheckSum differs from the file', spec: 'JDF 1.7 FileSpec/@CheckSum (MD5, hexBinary)',
  description: 'FileSpec/@CheckSum is the MD5 of the file as hexBinary; the file the URL names has another. Read only with --verify-checksums, since it reads every byte.',
  severity: sev('error', 'error', 'error'), flagged: 'CheckSum="d41d8cd98f00b204e9800998ecf8427e" (the file is not empty)', clean: 'CheckSum="d41d8cd98f00b204e9800998ecf8427e" (an empty file)',
}, (a) => `CheckSum says ${a.declared}, but the MD5 of ${a.path} is ${a.actual}; the file is damaged or not the one the ticket means.`);

export const mimeTypeMismatch = filesRule({
  code: 'mime-type-mismatch', title: 'MimeType differs from the file', spec: 'JDF 1.7 FileSpec/@MimeType; RFC 2046',
  description: 'FileSpec/@MimeType names a type (PDF, PostScript, TIFF, JPEG, PNG, ZIP, XML) whose magic bytes the file does not start with.',
  severity: sev('warning', 'warning', 'warning'), flagged: 'MimeType="application/pdf" (the file starts with a JPEG marker)', clean: 'MimeType="application/pdf" (the file starts with %PDF-)',
}, (a) => `MimeType says ${a.declared}, but ${a.path} looks like ${a.actual} by its first bytes.`);

export const pageCountMismatch = filesRule({
  code: 'page-count-mismatch', title: 'Pages differ from the PDF', spec: 'JDF 1.7 RunList/@NPage, RunList/@Pages',
  description: "The RunList's NPage (when it selects no Pages) is not the PDF's page count, or its Pages name a page the PDF does not have. The count is read with pdf.js (pdfjs-dist, an optional peer dependency: without it, page-count-not-checked), which reads the page tree, not the whole file.",
  severity: sev('error', 'error', 'error'), flagged: 'NPage="8" (the PDF has 6 pages)', clean: 'NPage="6" (the PDF has 6 pages)',
}, (a) => `${a.what} says ${a.declared}, but ${a.path} has ${a.actual} pages.`);

export const pageCountNotChecked = filesRule({
  code: 'page-count-not-checked', title: 'Pages not compared: pdfjs-dist is not installed', spec: 'JDF 1.7 RunList/@NPage, RunList/@Pages',
  description: 'RunList/@NPage or @Pages is not compared with the PDF: counting its pages needs pdf.js, pdfjs-dist, an optional peer dependency that a default install leaves out (with its canvas, 70 MB). Install it beside jdf-filespec to check them.',
  severity: sev('info', 'info', 'info'), flagged: 'NPage="8" (pdfjs-dist is not installed)', clean: 'NPage="8" (pdfjs-dist is installed)',
}, (a) => `${a.what} is not compared with the pages of ${a.path}: counting them needs pdfjs-dist, an optional peer; install it (npm install pdfjs-dist) to check them.`);

export const integrityRules = [fileSizeMismatch, checksumMismatch, mimeTypeMismatch, pageCountMismatch, pageCountNotChecked];

/** What a FileSpec (and its RunList) declares of its file's content: JDF 1.7 FileSpec, RunList. */
export interface DeclaredContent {
  FileSize?: string;
  MimeType?: string;
  CheckSum?: string;
  NPage?: string;
  Pages?: string;
}

/** What the Node edge found in the file, only what the declared values ask for. */
export interface ContentFacts {
  path: string;
  size: number;
  /** With a MimeType of a kind we know: that kind, and the kind the first bytes show (undefined: none we know). */
  kind?: { declared: string; actual: string | undefined };
  /** With NPage or Pages on a PDF: its page count, or 'no-pdfjs' where pdf.js is not there to count them. */
  pages?: number | 'no-pdfjs';
  /** With --verify-checksums and a CheckSum: the MD5 of every byte, in lower-case hex. */
  md5?: string;
}

/** JDF IntegerRangeList ("0 ~ 3 5 -1"): whether every index names a page of a document with `count` pages. */
export function rangesFit(pages: string, count: number): boolean | undefined {
  const items = pages.trim().replace(/\s*~\s*/g, '~').split(/\s+/).filter((s) => s !== '');
  const fits = (i: number) => (i >= 0 ? i < count : -i <= count);
  for (const item of items) {
    const m = /^(-?\d+)(?:~(-?\d+))?$/.exec(item);
    if (!m) return undefined; // not an IntegerRangeList: not judged here
    if (!fits(Number(m[1])) || (m[2] !== undefined && !fits(Number(m[2])))) return false;
  }
  return true;
}

type Found = { code: RuleCode; args: Record<string, string> };

function pageFindings(d: DeclaredContent, pages: number | 'no-pdfjs', path: string): Found[] {
  const what = d.Pages !== undefined ? 'RunList/@Pages' : 'RunList/@NPage';
  if (pages === 'no-pdfjs') return [{ code: 'page-count-not-checked', args: { what, path } }];
  if (d.Pages !== undefined) return rangesFit(d.Pages, pages) === false ? [{ code: 'page-count-mismatch', args: { what, declared: d.Pages, actual: String(pages), path } }] : [];
  return /^\d+$/.test(d.NPage!) && Number(d.NPage) !== pages ? [{ code: 'page-count-mismatch', args: { what, declared: d.NPage!, actual: String(pages), path } }] : [];
}

/** The findings of one file against what its FileSpec declares: size, type, pages, checksum, in that order. */
export function contentFindings(d: DeclaredContent, f: ContentFacts): Found[] {
  const out: Found[] = [];
  const path = f.path;
  if (d.FileSize !== undefined && /^\d+$/.test(d.FileSize) && BigInt(d.FileSize) !== BigInt(f.size)) {
    out.push({ code: 'file-size-mismatch', args: { declared: d.FileSize, actual: String(f.size), path } });
  }
  if (f.kind !== undefined && f.kind.actual !== f.kind.declared) {
    out.push({ code: 'mime-type-mismatch', args: { declared: d.MimeType!, actual: f.kind.actual ?? 'none of PDF, PostScript, TIFF, JPEG, PNG, ZIP, XML', path } });
  }
  if (f.pages !== undefined) out.push(...pageFindings(d, f.pages, path));
  if (f.md5 !== undefined && d.CheckSum !== undefined && f.md5 !== d.CheckSum.toLowerCase()) {
    out.push({ code: 'checksum-mismatch', args: { declared: d.CheckSum, actual: f.md5, path } });
  }
  return out;
}
