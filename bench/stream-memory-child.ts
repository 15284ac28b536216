// One measurement of the streaming path in a process of its own, started by bench/stream-memory.ts:
//   node dist/bench/stream-memory-child.js idle | loaded | stream <ticket>
// (loaded: the library imported, nothing checked: the constant the library's own code adds.)
// Prints one JSON line: peak (VmHWM, this process's high-water resident set, in bytes; null without /proc),
// heapPeak (the largest heapUsed + external seen: before the walk, at every 4,096th reference and at the end),
// references (how many were handed over). The visitor counts what it is given and drops it.
import { readFileSync } from 'node:fs';

function highWater(): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

let heapPeak = 0;
const sample = () => {
  const m = process.memoryUsage();
  heapPeak = Math.max(heapPeak, m.heapUsed + m.external);
};

const [what = 'idle', file] = process.argv.slice(2);
let references = 0;
if (what === 'stream') {
  const { validateTicketStream } = await import('../src/index.js');
  const bytes = readFileSync(file!);
  sample();
  validateTicketStream(bytes, { documentUri: 'file:///srv/hot/ticket.jdf', maxBytes: 2 ** 31 }, {
    reference() {
      if ((++references & 4095) === 0) sample();
    },
    finding() {},
    end() {
      sample();
    },
  });
} else if (what === 'loaded') {
  await import('../src/index.js');
} else if (what !== 'idle') {
  throw new Error(`stream-memory-child: unknown measurement ${what}`);
}
sample();
process.stdout.write(JSON.stringify({ peak: highWater(), maxrss: process.resourceUsage().maxRSS * 1024, heapPeak, references }) + '\n');
