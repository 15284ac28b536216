// One memory measurement in a process of its own, started by bench/memory.ts (or by hand under /usr/bin/time -v):
//   node --expose-gc dist/bench/memory-child.js idle | alloc <bytes> | ours <ticket> | raw <ticket>
// Prints one JSON line: peak (VmHWM, this process's own high-water resident set, in bytes), maxrss (getrusage's
// figure, for comparison only: Linux carries it over from the parent at fork) and, for `ours`, retained (the
// report's own size: the heap and external memory it keeps alive after a full collection).
import { readFileSync } from 'node:fs';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const held = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/** VmHWM from /proc/self/status; undefined where there is no /proc (then only maxrss is known). */
export function highWater(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function measure(what: string, arg: string | undefined): Promise<{ retained?: number; references?: number }> {
  if (what === 'idle') return {};
  if (what === 'alloc') {
    // Buffers filled with a non-zero byte, so every page is really resident (zeroed pages may never be).
    const chunks: Buffer[] = [];
    for (let left = Number(arg); left > 0; left -= 1 << 20) chunks.push(Buffer.alloc(Math.min(left, 1 << 20), 0x5a));
    return { references: chunks.length };
  }
  const bytes = readFileSync(arg!);
  if (what === 'raw') {
    const { XMLParser } = await import('fast-xml-parser');
    new XMLParser({ ignoreAttributes: false }).parse(bytes.toString('utf8'));
    return {};
  }
  if (what === 'ours') {
    const { validateTicket } = await import('../src/index.js');
    const before = held();
    const report = validateTicket(bytes, { documentUri: 'file:///srv/hot/ticket.jdf', maxBytes: 2 ** 31 });
    const retained = held() - before;
    let references = 0;
    for (const r of report.references) if (r.attribute === 'URL') references++;
    return { retained, references };
  }
  throw new Error(`memory-child: unknown measurement ${what}`);
}

const [what = 'idle', arg] = process.argv.slice(2);
const result = await measure(what, arg);
process.stdout.write(JSON.stringify({ peak: highWater() ?? null, maxrss: process.resourceUsage().maxRSS * 1024, ...result }) + '\n');
