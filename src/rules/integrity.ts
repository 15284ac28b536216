// Are the files the right files: what a FileSpec declares against the bytes (validate --check-exists).
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
