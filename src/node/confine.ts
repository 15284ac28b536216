// validate --root: which file a path reaches, followed as the operating system follows it, without touching
// anything outside the root; and, after the look, whether the answer still came from inside it.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

export interface Root {
  /** The root as given, made absolute (it may name the folder through a symbolic link). */
  named: string;
  /** Its real path: no symbolic link in it. */
  real: string;
}

export type Confined = { path: string } | { outside: string };

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';
const fold = (p: string) => (CASE_INSENSITIVE ? p.toLowerCase() : p);

/** The components of a path ("/a//b/" is a, b); on Windows "\" separates too. */
function components(p: string): string[] {
  return p.split(path.sep === '\\' ? /[\\/]/ : '/').filter((c) => c !== '');
}

/** What is left of `p` under `root` (its components after the root's), or undefined when it does not start there. */
function under(root: Root, p: string): string[] | undefined {
  const parts = components(p);
  for (const base of [root.real, root.named]) {
    const prefix = components(base);
    if (prefix.length <= parts.length && prefix.every((c, k) => fold(c) === fold(parts[k]!))) return parts.slice(prefix.length);
  }
  return undefined;
}

/** Whether `candidate` (an absolute, normalized path) is the root or below it: "..foo.pdf" is a plain name. */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(fold(root), fold(candidate));
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/**
 * The real path `target` reaches, resolved one component at a time as the operating system does (POSIX.1
 * 4.13, path resolution): a symbolic link's text is put in its place and read on from there, so "sub/../x"
 * where sub is a link goes up from the link's target, not from the folder that holds sub. Only paths inside the
 * root are ever looked at (lstat, readlink): the walk stops, outside, the moment it would leave. A component
 * that does not exist ends the walk; the rest is kept as written, so a later stat fails as the OS would.
 */
export async function resolveInside(root: Root, target: string): Promise<Confined> {
  const start = under(root, target);
  if (start === undefined) return { outside: '' };
  const queue = start;
  const stack: string[] = [];
  let how = '';
  for (let links = 0; queue.length > 0; ) {
    const c = queue.shift()!;
    if (c === '.') continue;
    if (c === '..') {
      if (stack.length === 0) return { outside: how };
      stack.pop();
      continue;
    }
    const here = path.join(root.real, ...stack, c);
    let info;
    try {
      info = await lstat(here);
    } catch {
      return { path: [here, ...queue].join(path.sep) };
    }
    if (!info.isSymbolicLink()) {
      stack.push(c);
      continue;
    }
    how = ' through a symbolic link';
    if (++links > 40) return { outside: ' through a loop of symbolic links' }; // ELOOP, as Linux counts
    const text = await readlink(here);
    if (path.isAbsolute(text)) {
      const rest = under(root, text);
      if (rest === undefined) return { outside: how };
      stack.length = 0;
      queue.unshift(...rest);
    } else {
      queue.unshift(...components(text));
    }
  }
  return { path: path.join(root.real, ...stack) };
}

/**
 * After a look at `real` (a path resolveInside returned, with no link in it): whether what was looked at is
 * still inside the root. A link swapped in on the way between the walk and the look would have led the look
 * elsewhere; then the real path of the file (or of its nearest existing folder) is no longer `real`.
 */
export async function stillInside(root: Root, real: string): Promise<boolean> {
  for (let p = real; ; p = path.dirname(p)) {
    try {
      const now = await realpath(p);
      return now === p || isInside(root.real, now) && fold(now) === fold(p);
    } catch {
      if (path.dirname(p) === p) return false;
    }
  }
}
