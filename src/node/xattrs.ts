// A file's extended attributes, POSIX ACLs among them (system.posix_acl_access), read from a ticket and written to
// the file that replaces it by rename: a rename puts a new inode in its place, which would have none of them, and
// an ACL dropped can widen access (its mask shows as the group bits of the mode). Node has no xattr API: this uses
// @napi-rs/xattr (an optional dependency, prebuilt for Linux, macOS and FreeBSD), whose calls take a path and do
// not follow a last symbolic link. Where it cannot load (Windows, another platform), there is nothing to copy.

/** One extended attribute: its name and its bytes, as the file holds them. */
export type Xattr = readonly [name: string, value: Uint8Array];

interface XattrModule {
  listAttributes(path: string): Promise<string[]>;
  getAttribute(path: string, name: string): Promise<Uint8Array | null>;
  setAttribute(path: string, name: string, value: Buffer): Promise<void>;
}

/**
 * The SELinux label is the system's to give: a new file gets its folder's, and setting one takes a privilege a
 * user does not have. Every other attribute (user.*, system.posix_acl_access, trusted.* for root) is copied.
 */
const LEFT_TO_THE_SYSTEM: ReadonlySet<string> = new Set(['security.selinux']);

let loaded: Promise<XattrModule | undefined> | undefined;

// Named by a variable: an optional dependency may be missing, and neither tsc nor the bundle may depend on it.
const XATTR_PACKAGE = '@napi-rs/xattr';

/** The native module, or undefined where it has no build (or it is not installed). */
function xattrModule(): Promise<XattrModule | undefined> {
  loaded ??= import(XATTR_PACKAGE).then((m) => m as XattrModule, () => undefined);
  return loaded;
}

/** The extended attributes of `file` (not following a last link) to copy; empty when the file system has none or they cannot be read here. */
export async function readXattrs(file: string): Promise<Xattr[]> {
  const xattr = await xattrModule();
  if (xattr === undefined) return [];
  let names: string[];
  try {
    names = await xattr.listAttributes(file);
  } catch {
    return []; // a file system without extended attributes (ENOTSUP)
  }
  const out: Xattr[] = [];
  for (const name of names) {
    if (LEFT_TO_THE_SYSTEM.has(name)) continue;
    const value = await xattr.getAttribute(file, name);
    if (value !== null) out.push([name, value]);
  }
  return out;
}

/** Sets each attribute on `file`, a file we created (not following a last link). Throws, naming the attribute, when one cannot be set. */
export async function writeXattrs(file: string, xattrs: readonly Xattr[]): Promise<void> {
  if (xattrs.length === 0) return;
  const xattr = await xattrModule();
  if (xattr === undefined) throw new Error('extended attributes cannot be written here');
  for (const [name, value] of xattrs) {
    try {
      await xattr.setAttribute(file, name, Buffer.from(value));
    } catch (error) {
      throw new Error(`cannot give the new file the ticket's extended attribute ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), so the ticket is left as it was`, { cause: error });
    }
  }
}
