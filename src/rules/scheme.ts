// The scheme and the reference as a whole: its length, emptiness, which scheme it names and whether that
// scheme's syntax holds (the appendix sections 2.1 and 4.5-4.6, Table 6; RFC 3986 sections 3.1 and 4.2).
import { SIGN } from './signs.js';
import { examples, isDoubledScheme, sev } from './helpers.js';
import { isDriveSegmentAt } from '../fileurl/drive.js';
import type { Rule } from './types.js';

/** Schemes a FileSpec/@URL may carry (JDF FileSpec; appendix 4.6: "ftp://...", "cid:pdl"). */
export const KNOWN_SCHEMES: ReadonlySet<string> = new Set(['file', 'http', 'https', 'ftp', 'cid', 'mailto']);

import { MAX_URL_LENGTH } from './url-length.js';

export { MAX_URL_LENGTH };

export const urlTooLong: Rule = {
  meta: {
    code: 'url-too-long',
    title: 'URL longer than 4095 characters',
    description: 'The JDF schemas (1.3 and later) restrict every URL and URI attribute to 4095 characters (jdftyp:URL, jdftyp:URI: maxLength 4095); consumers may cut longer values or refuse the ticket. The XJDF 2.x schema sets no limit, so for JDF version 2.x it is a warning.',
    spec: 'JDF 1.x schema JDFTypes.xsd jdftyp:URL maxLength',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file:///c:/' + 'a'.repeat(4090) + '.pdf', offset: 4095 }], [{ value: 'file:///c:/' + 'a'.repeat(4080) + '.pdf' }]),
  },
  message: (a) => `The URL is ${a.length} characters long; the JDF schemas allow at most ${a.limit}. Shorten the path or the file name.`,
  when: SIGN.long,
  check(ctx, report) {
    if (ctx.value.length <= MAX_URL_LENGTH) return;
    report({ offset: MAX_URL_LENGTH, args: { length: ctx.value.length, limit: MAX_URL_LENGTH }, ...(ctx.options.jdfVersion?.startsWith('2') ? { severity: 'warning' as const } : {}) });
  },
};

export const emptyUrl: Rule = {
  meta: {
    code: 'empty-url',
    title: 'Empty URL',
    description: 'An empty reference resolves to the base itself (RFC 3986 5.2.2), a folder rather than a file. In a ticket, on a resource whose Status declares it not ready yet (Unavailable or Incomplete, its own or inherited from the partition above it; JDF 1.x Status, XJDF 2.x Resource/@Status), it is info that names the status; on any other resource it stays an error.',
    spec: 'JDF appendix 4.6',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: '', offset: 0 }, { value: '   ', offset: 0 }], [{ value: 'a.pdf' }]),
  },
  message: (a) => (a.status
    ? `The URL is empty, on a resource whose Status="${a.status}" says it is not ready yet; name the file once it is.`
    : 'The URL is empty; name the file it refers to.'),
  when: SIGN.empty,
  check(ctx, report) {
    if (ctx.core === '') report({ offset: 0 });
  },
};

export const colonInFirstSegment: Rule = {
  meta: {
    code: 'colon-in-first-segment',
    title: "':' in the first segment of a relative path",
    description: "A relative path whose first segment holds ':' can be taken for a scheme; RFC 3986 4.2 forbids it and the appendix's Table 6 writes the Unix file 'foo:' as './foo:'.",
    spec: 'JDF appendix 4.5, Table 6; RFC 3986 4.2',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: '1st:proof.pdf', offset: 3, fix: './1st:proof.pdf' }, { value: 'my file:a.pdf', offset: 7, fix: './my file:a.pdf' }], [{ value: './foo:' }, { value: 'folder/a:b.pdf' }]),
  },
  message: () => "The first segment of this relative path holds ':', so it can be read as a scheme; write it as './' followed by the path (Table 6).",
  when: SIGN.noScheme,
  check(ctx, report) {
    if (ctx.scheme !== undefined || ctx.kind !== 'relative-path') return;
    const slash = ctx.core.indexOf('/');
    const first = slash === -1 ? ctx.core : ctx.core.slice(0, slash);
    const colon = first.indexOf(':');
    if (colon === -1 || ctx.core.startsWith('\\\\')) return;
    report({ offset: ctx.lead + colon, fix: ctx.withCore('./' + ctx.core) });
  },
};

export const unknownScheme: Rule = {
  meta: {
    code: 'unknown-scheme',
    title: 'Scheme a JDF consumer may not know',
    description: "A JDF URL is a file, http, https or ftp URL, a cid: MIME part or (for JMF endpoints and notifications) a mailto: address. Another scheme is passed through unresolved; if 'foo:' was meant as a file name, write './foo:' (Table 6). In a ticket, a URL other than FileSpec/@URL, Preview/@URL or a folder (a NodeInfo/@Route, a JMF endpoint) may use a vendor's own scheme (Prinect's pt://): there it is info.",
    spec: 'JDF appendix 4.6; JDF appendix 4.5, Table 6',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples([{ value: 'foo:bar.pdf', offset: 0 }, { value: 'smb://server/share/a.pdf', offset: 0 }], [{ value: 'cid:pdl' }, { value: 'ftp://cip4.org/pub/a.pdf' }]),
  },
  message: (a) => (a.endpoint
    ? `'${a.scheme}:' is a scheme of its own, not file, http, https, ftp, cid or mailto: only a consumer that knows it can use this URL.`
    : `'${a.scheme}:' is not a scheme JDF consumers read (file, http, https, ftp, cid, mailto); if it is part of a file name, write './' before it.`),
  when: SIGN.otherScheme,
  check(ctx, report) {
    if (ctx.scheme === undefined || ctx.scheme.length < 2 || KNOWN_SCHEMES.has(ctx.scheme)) return;
    report({ offset: ctx.lead, args: { scheme: ctx.ref.scheme! } });
  },
};

export const schemeSyntax: Rule = {
  meta: {
    code: 'scheme-syntax',
    title: "URL does not follow its scheme's syntax",
    description: "An http, https or ftp URL names a host after '//' (RFC 9110 4.2.1, RFC 1738 3.2): http:///www.example.org/jmf has an empty host and names no server. A mailto: URL needs an address (RFC 6068), a cid: URL a content ID (RFC 2392). These URLs are never resolved against a Directory, so nothing else repairs them.",
    spec: 'RFC 9110 4.2.1; RFC 1738 3.2; RFC 6068 2; RFC 2392 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples(
      [{ value: 'http:///www.example.org/jmf', offset: 7 }, { value: 'https:/host/a.pdf', offset: 6 }, { value: 'mailto:', offset: 7 }, { value: 'cid:', offset: 4 }],
      [{ value: 'http://www.example.org/jmf' }, { value: 'ftp://cip4.org/pub/a.pdf' }, { value: 'mailto:prepress@example.org' }, { value: 'cid:pdl' }],
    ),
  },
  message: (a) => `This ${a.scheme}: URL ${a.what}; ${a.advice}`,
  when: SIGN.otherScheme,
  check(ctx, report) {
    const scheme = ctx.scheme;
    if (scheme === 'http' || scheme === 'https' || scheme === 'ftp') {
      if (ctx.ref.authority !== undefined && ctx.authority?.host !== '') return;
      report({ offset: ctx.ref.authority !== undefined ? ctx.authorityStart : ctx.pathStart, args: { scheme, what: 'names no host', advice: `write ${scheme}://host/path.` } });
    } else if ((scheme === 'mailto' || scheme === 'cid') && ctx.ref.path === '') {
      report({ offset: ctx.pathStart, args: { scheme, what: scheme === 'mailto' ? 'names no address' : 'names no content ID', advice: scheme === 'mailto' ? 'write mailto:name@host.' : 'write cid: followed by the MIME part\'s Content-ID.' } });
    }
  },
};

export const doubledScheme: Rule = {
  meta: {
    code: 'doubled-scheme',
    title: "'file:' written twice",
    description: "In file://file:/c:/jobs/a.pdf the scheme is written twice: a URL parser takes the second 'file:' for a host 'file' with an empty port. What was meant is file:///c:/jobs/a.pdf.",
    spec: 'RFC 8089 2; RFC 3986 3.2',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([
      { value: 'file://file:/c:/jobs/a.pdf', offset: 7, fix: 'file:///c:/jobs/a.pdf' },
      { value: 'FILE://file://server/share/a.pdf', offset: 7, fix: 'FILE://server/share/a.pdf' },
      { value: 'file:file:///c:/a.pdf', offset: 5, fix: 'file:///c:/a.pdf' },
    ], [{ value: 'file:///c:/jobs/a.pdf' }, { value: 'file://fileserver/a.pdf' }, { value: 'file:///c:/file:a.pdf' }]),
  },
  message: (a) => (a.inPath
    ? "The scheme 'file:' is written twice, so the URL after the first is read as a relative path; write it once."
    : "The scheme 'file:' is written twice, so the second is read as a host with an empty port; write it once."),
  when: SIGN.fileScheme,
  check(ctx, report) {
    if (!isDoubledScheme(ctx)) return;
    const path = ctx.ref.path;
    if (ctx.ref.authority === undefined) {
      // "file:file:///c:/a.pdf": the second URL is the path; it is what was meant.
      report({ offset: ctx.pathStart, args: { inPath: 1 }, fix: ctx.withCore(ctx.core.slice(ctx.pathStart - ctx.lead)) });
      return;
    }
    const fixed = ctx.core.slice(0, ctx.ref.scheme!.length + 1) + (path.startsWith('//') ? path : '///' + path.replace(/^\/+/, ''));
    report({ offset: ctx.authorityStart, fix: ctx.withCore(fixed + ctx.core.slice(ctx.pathStart - ctx.lead + path.length)) });
  },
};

export const fileRelativePath: Rule = {
  meta: {
    code: 'file-url-relative-path',
    title: 'file: URL with a relative path',
    description: 'A URL with a scheme must have an absolute path (appendix 2.1); file:a.pdf is neither a file URL nor a relative reference. Drop the scheme to make it relative, or give the full path.',
    spec: 'JDF appendix 2.1; RFC 8089 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file:a.pdf', offset: 5 }, { value: 'file:', offset: 5 }], [{ value: 'a.pdf' }, { value: 'file:///a.pdf', options: { platform: 'unix' } }]),
  },
  message: () => "A file URL needs an absolute path; drop 'file:' to make the reference relative, or write the whole path.",
  when: SIGN.fileScheme,
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined || isDoubledScheme(ctx)) return;
    const p = ctx.ref.path;
    if (p.startsWith('/') || isDriveSegmentAt(p, 0)) return;
    report({ offset: ctx.pathStart });
  },
};
