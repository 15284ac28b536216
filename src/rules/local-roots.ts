// The folders at the root of a POSIX or macOS file system, as data: `file:/Users/me/a.pdf` names a folder here, not
// a server "Users" (file-without-authority fixes it to file:///Users/me/a.pdf). Any other first segment
// (`file:/host/share/x.pdf`, `file:/BambiHF/sim/Input`) may be a UNC server just as well: two suggestions, no fix.

/** Filesystem Hierarchy Standard 3.0, section 3 (the root file system's directories). */
const FHS = ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib64', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'tmp', 'usr', 'var'];
/** macOS: the root folders of its file system layout (Apple's File System Programming Guide, "File System Basics"). */
const MACOS = ['Applications', 'Library', 'Network', 'System', 'Users', 'Volumes', 'private', 'cores'];

const ROOTS = new Set([...FHS, ...MACOS].map((n) => n.toLowerCase()));

/** Whether `name` (a path's first segment, as written) is a folder every POSIX or macOS root holds. */
export const isLocalRoot = (name: string): boolean => ROOTS.has(name.toLowerCase());
