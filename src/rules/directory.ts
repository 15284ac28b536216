// RunList/@Directory: the base URI of a RunList (appendix sections 2 and 2.2).
import { SIGN } from './signs.js';
import { examples, sev } from './helpers.js';
import type { Rule } from './types.js';

export const directoryNotAbsolute: Rule = {
  meta: {
    code: 'directory-not-absolute',
    title: 'Directory is not an absolute URI',
    description: 'RunList/@Directory, if supplied, must be an absolute URI (appendix section 2): it is the base every relative FileSpec/@URL resolves against.',
    spec: 'JDF appendix 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'jobs/', options: { role: 'directory' }, offset: 0 }, { value: '/pub/jobs/', options: { role: 'directory' }, offset: 0 }], [{ value: 'file:///c:/pub/jdf-folder/', options: { role: 'directory' } }]),
  },
  message: () => 'A Directory must be an absolute URI such as file:///c:/jobs/ (appendix section 2); give the scheme and the full path.',
  when: SIGN.directory,
  check(ctx, report) {
    if (ctx.role !== 'directory' || ctx.scheme !== undefined || ctx.core === '' || ctx.core.startsWith('\\\\')) return;
    report({ offset: ctx.lead });
  },
};

export const directoryWithoutTrailingSlash: Rule = {
  meta: {
    code: 'directory-without-trailing-slash',
    title: "Directory without a trailing '/'",
    description: "Resolution drops everything after the last '/' of the base, so Directory=\"file:///c:/DownloadDir/Title-J626103\" with URL=\"../F-22/job001.pdf\" gives file:///c:/F-22/job001.pdf, not file:///c:/DownloadDir/F-22/job001.pdf (appendix 2.2, the note under the XML example). In a ticket it is a warning where some relative reference resolves against the Directory, and info where none does (every URL under it is absolute, so nothing changes yet).",
    spec: 'JDF appendix 2.2; RFC 3986 5.2.3',
    severity: sev('warning', 'warning', 'warning'),
    fixable: true,
    examples: examples(
      [{ value: 'file:///c:/DownloadDir/Title-J626103', options: { role: 'directory' }, offset: 23, fix: 'file:///c:/DownloadDir/Title-J626103/' }],
      [{ value: 'file:///c:/DownloadDir/Title-J626103/', options: { role: 'directory' } }, { value: 'file:///c:/a.pdf' }],
    ),
  },
  message: (a) => (a.unused
    ? `The Directory does not end with '/'; no relative URL resolves against it here, but one would lose its last segment '${a.segment}'; add the trailing '/'.`
    : `The Directory does not end with '/', so its last segment '${a.segment}' is dropped when URLs resolve against it; add the trailing '/'.`),
  when: SIGN.directory,
  check(ctx, report) {
    if (ctx.role !== 'directory' || ctx.scheme === undefined) return;
    const path = ctx.ref.path;
    if (path === '' || path.endsWith('/')) return;
    const end = ctx.pathStart - ctx.lead + path.length;
    report({
      offset: ctx.pathStart + path.lastIndexOf('/') + 1,
      args: { segment: path.slice(path.lastIndexOf('/') + 1) },
      fix: ctx.withCore(ctx.core.slice(0, end) + '/' + ctx.core.slice(end)),
    });
  },
};

export const directoryRules: Rule[] = [directoryNotAbsolute, directoryWithoutTrailingSlash];
