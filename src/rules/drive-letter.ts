// Where a rule's URL holds a drive letter in the old form "c|" (RFC 8089 E.2.2), for the rules that fix it.
// What a drive letter is, src/fileurl/drive.ts says; a rule asks it, never a regular expression of its own.
import { driveLetterAt } from '../fileurl/drive.js';
import type { CheckContext } from './types.js';

/** Index in core of the "|" of a drive letter such as "c|" (RFC 8089 E.2.2), or -1. */
export function drivePipeIndex(ctx: CheckContext): number {
  const pathInCore = ctx.pathStart - ctx.lead;
  const p = ctx.ref.path;
  if (p[0] === '/' && driveLetterAt(p, 1) === 2 && p[2] === '|') return pathInCore + 2;
  if (ctx.scheme === 'file' && driveLetterAt(p, 0) === 2 && p[1] === '|') return pathInCore + 1;
  const host = ctx.ref.authority;
  if (host !== undefined && driveLetterAt(host, 0) === 2 && host[1] === '|') return ctx.authorityStart - ctx.lead + 1;
  return -1;
}
