// Writing a file of the work area (or the status file) whole and at once, without ever opening a name someone
// else made: the bytes go to a temporary of a random name created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW, so
// a name planted in advance, a symbolic link above all, fails instead of being written through), which is then
// renamed over the file (a rename replaces a link, it never follows one).
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A hidden name beside `file` nobody can guess: `.NAME.<12 hex digits>.tmp`. */
export const tempBeside = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);

/** Whether a name in a claim or owner folder is one of our temporaries (left by a crash). */
export const isOurTemp = (name: string) => /^\..+\.[0-9a-f]{12}\.tmp$/.test(name);

/**
 * Makes `file` hold what `write` writes to the descriptor, all at once. `mode` is the new file's (the umask
 * applies). A temporary that cannot be created (the name is taken: EEXIST, ELOOP) is someone else's and is left.
 */
export async function writeWhole(file: string, write: (handle: FileHandle) => Promise<void>, mode: number): Promise<void> {
  const temp = tempBeside(file);
  const handle = await open(temp, EXCLUSIVE, mode);
  try {
    await write(handle);
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {}); // ours: we created it
    throw error;
  }
}

/** writeWhole for a text. */
export const writeTextWhole = (file: string, text: string, mode: number) => writeWhole(file, (h) => h.writeFile(text), mode);
