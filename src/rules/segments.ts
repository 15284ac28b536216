// The path's segments: dot segments in an absolute URL, an escaped '/', names Windows reserves (the appendix
// Tables 4 and 5; RFC 3986 5.2.4; RFC 8089 section 5).
import { SIGN } from './signs.js';
import { decodeSegment } from '../escape/percent.js';
import { removeDotSegmentsTraced } from '../uri/resolve.js';
import { KIND } from './facts.js';
import { examples, sev, withPath } from './helpers.js';
import type { Rule } from './types.js';

export const dotSegmentInAbsolute: Rule = {
  meta: {
    code: 'dot-segment-in-absolute-url',
    title: "'.' or '..' in an absolute URL",
    description: "An absolute URL must not contain '.' or '..' segments; they belong to relative references (appendix Table 4, example 25). The fix removes them (RFC 3986 5.2.4) when that does not climb above the root.",
    spec: 'JDF appendix 2.1; JDF appendix 4.3, Table 4 example 25; RFC 3986 5.2.4',
    severity: sev('error', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:///../a.pdf', offset: 8, fix: null }, { value: 'file:///c:/a/./b/../c.pdf', offset: 13, fix: 'file:///c:/a/c.pdf' }], [{ value: '../a.pdf' }, { value: 'File:///HD1/%2E%2E' }, { value: 'file:///c:/a..b/c.pdf' }]),
  },
  message: (a) => `An absolute URL must not contain '${a.segment}' segments; ${a.fixable ? 'write the path without them' : 'it climbs above the root, so name the file directly'}.`,
  when: SIGN.segmentDot | SIGN.pathDot,
  check(ctx, report) {
    if (ctx.ref.authority === undefined && ctx.scheme === undefined) return;
    if (ctx.scheme !== undefined && ctx.scheme !== 'file') return;
    // A dot segment starts the path or follows a '/'.
    if (!ctx.facts.has(KIND.segmentDot) && ctx.ref.path.charCodeAt(0) !== 0x2e) return;
    const path = ctx.ref.path;
    const segments = path.split('/');
    const index = segments.findIndex((s) => s === '.' || s === '..');
    if (index === -1) return;
    const result = removeDotSegmentsTraced(path);
    const fixable = result.aboveRoot === 0 && !result.removedDrive;
    const offset = ctx.pathStart + segments.slice(0, index).join('/').length + (index > 0 ? 1 : 0);
    report({
      offset,
      args: { segment: segments[index]!, fixable: fixable ? 1 : '' },
      ...(fixable ? { fix: withPath(ctx, result.path) } : {}),
    });
  },
};

export const escapedSlash: Rule = {
  meta: {
    code: 'escaped-slash',
    title: "Escaped '/' (%2F) in the path",
    description: "'/' must not be escaped when it is the separator (appendix Table 4, example 28): %2F turns the path into one segment. Only a Mac file name may hold '/' (Table 5), so for the mac platform this is a warning.",
    spec: 'JDF appendix 4.3, Table 4 example 28; JDF appendix 4.4, Table 5',
    severity: sev('error', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:///c%3a%2ffolder%2fa%2epdf', offset: 12, fix: 'file:///c%3a/folder/a%2epdf' }, { value: 'folder%2Fa.pdf', offset: 6, fix: 'folder/a.pdf' }], [{ value: 'file:///c%3a/folder/a%2epdf' }, { value: 'http://a/b%2Fc' }]),
  },
  message: () => "'/' is escaped as %2F, which makes the path one segment; write the separator as '/'.",
  when: SIGN.escapedSlash,
  check(ctx, report) {
    if (!ctx.isFileLike || !ctx.facts.has(KIND.escapedSlash)) return;
    const i = ctx.ref.path.search(/%2[fF]/);
    if (i === -1) return;
    report({
      offset: ctx.pathStart + i,
      fix: withPath(ctx, ctx.ref.path.replace(/%2[fF]/g, '/')),
      ...(ctx.platform === 'mac' && ctx.profile === 'jdf' ? { severity: 'warning' as const } : {}),
    });
  },
};

const RESERVED_DEVICE = /^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?$/i;

/** A decoded name Windows reserves (a device) or changes (a trailing dot or space): RFC 8089 section 5. */
export function isWindowsReservedName(name: string): boolean {
  return RESERVED_DEVICE.test(name) || (name.length > 0 && name !== '.' && name !== '..' && /[. ]$/.test(name));
}

export const windowsReservedName: Rule = {
  meta: {
    code: 'windows-reserved-name',
    title: 'Name Windows reserves',
    description: 'Windows reserves the device names CON, PRN, AUX, NUL, COM1-COM9 and LPT1-LPT9 (with any extension) and drops a trailing dot or space from names; merely opening such a name can reach a device (RFC 8089 section 5). Reported for the windows platform.',
    spec: 'RFC 8089 5',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples(
      [{ value: 'file:///c:/jobs/CON.pdf', options: { platform: 'windows' }, offset: 16 }, { value: 'art/lpt1', options: { platform: 'windows' }, offset: 4 }, { value: 'file:///c:/jobs/final./a.pdf', options: { platform: 'windows' }, offset: 16 }],
      [{ value: 'file:///c:/jobs/CON.pdf', options: { platform: 'unix' } }, { value: 'file:///c:/jobs/console.pdf', options: { platform: 'windows' } }],
    ),
  },
  message: (a) => `'${a.name}' ${a.why} on Windows; rename the file or folder.`,
  when: SIGN.windows,
  check(ctx, report) {
    if (ctx.platform !== 'windows' || !ctx.isFileLike) return;
    let offset = ctx.pathStart;
    for (const segment of ctx.ref.path.split('/')) {
      const name = decodeSegment(segment).text;
      if (isWindowsReservedName(name)) {
        report({ offset, args: { name, why: RESERVED_DEVICE.test(name) ? 'is a reserved device name' : 'ends in a dot or space, which Windows silently drops' } });
        return;
      }
      offset += segment.length + 1;
    }
  },
};
