// How many pages a PDF has, without reading it whole: pdf.js (Mozilla's pdfjs-dist, an optional peer dependency)
// is given the file through a range transport and reads only the trailer, the cross-reference table and the
// page tree (about 64 KiB of a 20 MiB file in our test). A damaged PDF (a wrong startxref) makes pdf.js rebuild the
// table from the whole file: reading stops at MAX_READ and its pages are not counted. Without pdfjs-dist, page
// counts are not checked (page-count-not-checked says so).
import { open, type FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loading: Promise<PdfJs | null> | undefined;

function pdfjs(): Promise<PdfJs | null> {
  loading ??= (async () => {
    try {
      const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
      lib.GlobalWorkerOptions.workerSrc = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
      return lib;
    } catch {
      return null;
    }
  })();
  return loading;
}

/** Whether pdf.js can be loaded: pdfjs-dist is installed beside us. */
export async function pdfjsInstalled(): Promise<boolean> {
  return (await pdfjs()) !== null;
}

/** The most of one PDF read to count its pages: a sound PDF needs its trailer, xref and page tree (a few KiB to a few hundred). */
export const MAX_READ = 4 * 1024 * 1024;
/**
 * pdf.js asks for one chunk at a time and, rebuilding a damaged table, starts its scan again after each: the time
 * grows with the square of the chunks read. 64 KiB chunks took 9.6 s to reach MAX_READ on a damaged PDF; 512 KiB
 * chunks reach it in eight steps, and a sound PDF still needs only one or two.
 */
const RANGE_CHUNK = 512 * 1024;

/**
 * The number of pages of the PDF at `file` (a path, or a file already open, which is left open), or undefined
 * when pdf.js is not installed, cannot read it, or would need more than `maxRead` bytes of it. `stats.bytesRead`
 * tells how much was read.
 */
export async function pdfPageCount(file: string | FileHandle, maxRead = MAX_READ, stats: { bytesRead: number } = { bytesRead: 0 }): Promise<number | undefined> {
  const lib = await pdfjs();
  if (!lib) return undefined;
  const handle = typeof file === 'string' ? await open(file, 'r') : file;
  let stop: (() => void) | undefined;
  try {
    const { size } = await handle.stat();
    const read = async (begin: number, end: number): Promise<Uint8Array> => {
      const length = Math.max(0, Math.min(end, size, begin + maxRead - stats.bytesRead) - begin);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, begin);
      stats.bytesRead += bytesRead;
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    };
    class FileRange extends lib.PDFDataRangeTransport {
      override requestDataRange(begin: number, end: number): void {
        if (stats.bytesRead + (end - begin) > maxRead) return stop?.();
        read(begin, end).then((chunk) => this.onDataRange(begin, chunk), () => undefined);
      }
    }
    const transport = new FileRange(size, await read(0, Math.min(size, 65536)));
    const task = lib.getDocument({ range: transport, disableAutoFetch: true, disableStream: true, rangeChunkSize: RANGE_CHUNK, isEvalSupported: false, verbosity: 0 });
    // Past the limit the task is given up: its promise may never settle once destroyed, so the race ends it.
    const stopped = new Promise<never>((_, reject) => {
      stop = () => {
        reject(new Error('read limit'));
        void task.destroy().catch(() => undefined);
      };
    });
    try {
      const doc = await Promise.race([task.promise, stopped]);
      const pages = doc.numPages;
      await doc.destroy();
      return pages;
    } catch {
      await task.destroy().catch(() => undefined);
      return undefined;
    }
  } finally {
    if (typeof file === 'string') await handle.close();
  }
}
