// What needs the file system: finding tickets under the paths given, and reading them within a size limit.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readRegularFile } from './read-regular.js';

export const TICKET_EXTENSIONS: readonly string[] = ['.jdf', '.xjdf', '.jmf', '.xjmf', '.ptk', '.xml'];

export interface TicketSource {
  /** As given (or found under a folder given); "-" for standard input. */
  path: string;
  /** file: URI of the ticket, whose folder is the base when there is no Directory. */
  documentUri?: string;
}

export interface UnreadablePath {
  path: string;
  reason: string;
}

/** Expands files and folders (recursively, ticket extensions only, sorted for a stable order). */
export async function expandPaths(paths: readonly string[]): Promise<{ sources: TicketSource[]; unreadable: UnreadablePath[] }> {
  const sources: TicketSource[] = [];
  const unreadable: UnreadablePath[] = [];
  const visit = async (p: string, explicit: boolean): Promise<void> => {
    let info;
    try {
      info = await stat(p);
    } catch (error) {
      unreadable.push({ path: p, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : String((error as Error).message) });
      return;
    }
    if (info.isDirectory()) {
      let entries;
      try {
        entries = await readdir(p, { withFileTypes: true });
      } catch (error) {
        unreadable.push({ path: p, reason: String((error as Error).message) });
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = path.join(p, entry.name);
        if (entry.isDirectory()) await visit(child, false);
        else if (entry.isFile() && TICKET_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) await visit(child, false);
      }
    } else if (info.isFile() || explicit) {
      sources.push({ path: p, documentUri: pathToFileURL(path.resolve(p)).href });
    }
  };
  for (const p of paths) {
    if (p === '-') sources.push({ path: '-' });
    else await visit(p, true);
  }
  return { sources, unreadable };
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
    const read = await readRegularFile(source.path, maxBytes);
    if ('notRegular' in read) return { error: `${read.notRegular}, not a regular file; only regular files are read` };
    if ('tooLarge' in read) return { tooLarge: read.tooLarge };
    return { bytes: read.bytes };
  } catch (error) {
    if (error instanceof StdinTooLarge) return { tooLarge: error.size };
    return { error: (error as Error).message };
  }
}

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
