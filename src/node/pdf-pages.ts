// How many pages a PDF has, without reading it whole: pdf.js (Mozilla's pdfjs-dist, an optional dependency)
// is given the file through a range transport and reads only the trailer, the cross-reference table and the
// page tree (about 64 KiB of a 20 MiB file in our test). Without pdfjs-dist, page counts are not checked.
import { open } from 'node:fs/promises';
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

/** The number of pages of the PDF at `file`, or undefined when pdf.js is not installed or cannot read it. */
export async function pdfPageCount(file: string): Promise<number | undefined> {
  const lib = await pdfjs();
  if (!lib) return undefined;
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (begin: number, end: number): Promise<Uint8Array> => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(end, size) - begin));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, begin);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    };
    class FileRange extends lib.PDFDataRangeTransport {
      override requestDataRange(begin: number, end: number): void {
        read(begin, end).then((chunk) => this.onDataRange(begin, chunk), () => undefined);
      }
    }
    const transport = new FileRange(size, await read(0, Math.min(size, 65536)));
    const task = lib.getDocument({ range: transport, disableAutoFetch: true, disableStream: true, rangeChunkSize: 65536, isEvalSupported: false, verbosity: 0 });
    try {
      const doc = await task.promise;
      const pages = doc.numPages;
      await doc.destroy();
      return pages;
    } catch {
      await task.destroy().catch(() => undefined);
      return undefined;
    }
  } finally {
    await handle.close();
  }
}

/** JDF IntegerRangeList ("0 ~ 3 5 -1"): whether every index names a page of a document with `count` pages. */
export function rangesFit(pages: string, count: number): boolean | undefined {
  const items = pages.trim().replace(/\s*~\s*/g, '~').split(/\s+/).filter((s) => s !== '');
  const fits = (i: number) => (i >= 0 ? i < count : -i <= count);
  for (const item of items) {
    const m = /^(-?\d+)(?:~(-?\d+))?$/.exec(item);
    if (!m) return undefined; // not an IntegerRangeList: not judged here
    if (!fits(Number(m[1])) || (m[2] !== undefined && !fits(Number(m[2])))) return false;
  }
  return true;
}
