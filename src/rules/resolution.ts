// What resolution against the base does to the reference (RFC 3986 5.2, RFC 8089 E.2.1).
import { SIGN } from './signs.js';
import { baseComponents, resolveReference } from '../uri/resolve.js';
import { examples, sev } from './helpers.js';
import type { Rule } from './types.js';

const FROM_C = { base: 'file:///c:/pub/jdf-folder/' };

export const driveLostInResolution: Rule = {
  meta: {
    code: 'drive-lost-in-resolution',
    title: 'Resolution leaves the drive letter',
    description: "Strict RFC 3986 resolution lets '..' climb above a drive letter and lets '/x' replace the whole path, drive included; RFC 8089 E.2.1 keeps the drive. The strict result is reported and both readings are named. With the drivePreserving option the E.2.1 result is used and nothing is reported.",
    spec: 'RFC 8089 E.2.1; RFC 3986 5.2.4',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples(
      [{ value: '../../../a.pdf', options: FROM_C, offset: 0 }, { value: '/other/a.pdf', options: FROM_C, offset: 0 }],
      [{ value: '../../a.pdf', options: FROM_C }, { value: '/c:/other/a.pdf', options: FROM_C }],
    ),
  },
  message: (a) => `${a.how}: strict RFC 3986 resolution gives ${a.strict}, RFC 8089 E.2.1 gives ${a.preserving}; write the reference so that both agree (for example with the drive: /c:/...).`,
  when: SIGN.resolved,
  check(ctx, report) {
    const r = ctx.resolution;
    if (!r || ctx.options.drivePreserving) return;
    if (!r.trace.climbedAboveDrive && !r.trace.absolutePathDroppedDrive) return;
    report({
      offset: ctx.lead,
      args: {
        how: r.trace.absolutePathDroppedDrive ? "This absolute path replaces the base's drive letter" : "'..' climbs above the base's drive letter",
        strict: r.href,
        preserving: resolveReference(ctx.core, ctx.options.base!, { drivePreserving: true }),
      },
    });
  },
};

export const climbsAboveRoot: Rule = {
  meta: {
    code: 'climbs-above-root',
    title: "'..' climbs above the root",
    description: "More '..' segments than the base has folders: RFC 3986 5.2.4 stops at the root (5.4.2's abnormal examples), but a consumer joining strings would climb out of the folder it meant to stay in.",
    spec: 'RFC 3986 5.2.4, 5.4.2',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples([{ value: '../../../../a.pdf', options: { base: 'file:///pub/hot-folder/' }, offset: 0 }], [{ value: '../a.pdf', options: { base: 'file:///pub/hot-folder/' } }]),
  },
  message: (a) => `${a.count} '..' segment${Number(a.count) > 1 ? 's climb' : ' climbs'} above the root of the base and ${Number(a.count) > 1 ? 'are' : 'is'} dropped; name the file without climbing past the root.`,
  when: SIGN.resolved,
  check(ctx, report) {
    const r = ctx.resolution;
    if (!r || r.trace.aboveRoot === 0) return;
    report({ offset: ctx.lead, args: { count: r.trace.aboveRoot } });
  },
};

export const baseLastSegmentDropped: Rule = {
  meta: {
    code: 'base-last-segment-dropped',
    title: "Base without a trailing '/'",
    description: "A relative path resolves against everything up to the last '/' of the base (RFC 3986 5.2.3): a base Directory that forgot its trailing '/' loses its last folder (appendix 2.2, the note under the XML example).",
    spec: 'JDF appendix 2.2; RFC 3986 5.2.3',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples(
      [{ value: '../F-22/job001.pdf', options: { base: 'file:///c:/DownloadDir/Title-J626103' }, offset: 0 }],
      [{ value: '../F-22/job001.pdf', options: { base: 'file:///c:/DownloadDir/Title-J626103/' } }, { value: '/a.pdf', options: { base: 'file:///c:/x' } }],
    ),
  },
  message: (a) => `The base does not end with '/', so its last segment '${a.segment}' is dropped and this resolves to ${a.resolved}; add the trailing '/' to the base.`,
  when: SIGN.resolved,
  check(ctx, report) {
    const r = ctx.resolution;
    const base = ctx.options.base;
    if (!r || base === undefined || ctx.kind !== 'relative-path' || ctx.scheme !== undefined || ctx.ref.path === '') return;
    const basePath = baseComponents(base).path;
    if (basePath === '' || basePath.endsWith('/')) return;
    report({ offset: ctx.lead, args: { segment: basePath.slice(basePath.lastIndexOf('/') + 1), resolved: r.href } });
  },
};

export const resolutionRules: Rule[] = [driveLostInResolution, climbsAboveRoot, baseLastSegmentDropped];
