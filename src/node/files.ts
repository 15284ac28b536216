// Reading a ticket within a size limit (finding them is discover.ts).
import { readRegularFile } from './read-regular.js';

export { TICKET_EXTENSIONS } from './extensions.js';

export interface TicketSource {
  /** As given (or found under a folder given); "-" for standard input. */
  path: string;
  /** file: URI of the ticket, whose folder is the base when there is no Directory. */
  documentUri?: string;
  /** Refuse a symbolic link as the last component instead of reading through it (the hot folder's own files). */
  noFollow?: boolean;
  /** The folder, as given, whose search found this file (absent for a file named or matched by a pattern). */
  foundIn?: string;
}

export interface UnreadablePath {
  path: string;
  reason: string;
}

export type ReadResult = { bytes: Uint8Array } | { tooLarge: number } | { error: string };

/**
 * Reads a ticket, but not one larger than maxBytes, and only a regular file: a FIFO, a device or a socket
 * named on the command line is an unreadable path (it could block, or never end), and a file that grows while
 * it is read is cut off at the limit (see readRegularFile).
 */
export async function readTicket(source: TicketSource, maxBytes: number): Promise<ReadResult> {
  try {
    if (source.path === '-') return { bytes: await readStdin(maxBytes) };
    const read = await readRegularFile(source.path, maxBytes, source.noFollow);
    if ('notRegular' in read) return { error: notRegularReason(read.notRegular) };
    if ('tooLarge' in read) return { tooLarge: read.tooLarge };
    return { bytes: read.bytes };
  } catch (error) {
    if (error instanceof StdinTooLarge) return { tooLarge: error.size };
    return { error: (error as Error).message };
  }
}

/** Why a path that is not a regular file (a FIFO, a device, a folder: kindOf's words) was not read. */
export const notRegularReason = (kind: string) => `${kind}, not a regular file; only regular files are read`;

class StdinTooLarge extends Error {
  constructor(readonly size: number) {
    super('standard input is over the limit');
  }
}

async function readStdin(maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new StdinTooLarge(size);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
