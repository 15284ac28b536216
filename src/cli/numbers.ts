// Numeric options, read strictly: a value that is not what the option takes is a usage error naming it, never
// NaN passed on (yargs' type: 'number' turns "abc" into NaN, which compares false with everything).
import { UsageError } from './define.js';

/** One value, even when the option was given twice (the last one wins, as in yargs and ESLint). */
function single(value: unknown): string {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return String(last ?? '').trim();
}

/** A whole number from `min` up, written in decimal digits. */
export function wholeNumber(option: string, min: number): (value: unknown) => number {
  return (value) => {
    const text = single(value);
    if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
      throw new UsageError(`--${option} takes a whole number of ${min} or more, not "${text}".`);
    }
    return Number(text);
  };
}

// SI prefixes are powers of 1000, IEC prefixes (Ki, Mi, Gi) powers of 1024 (IEC 80000-13); B alone is a byte.
const UNITS: Record<string, number> = {
  '': 1, b: 1,
  k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9,
  ki: 1024, kib: 1024, mi: 1024 ** 2, mib: 1024 ** 2, gi: 1024 ** 3, gib: 1024 ** 3,
};

/** A size in bytes: `1048576`, `10kB` (10,000), `100MiB` (100 x 1024^2); at most `max`. */
export function byteSize(option: string, max: number): (value: unknown) => number {
  return (value) => {
    const text = single(value);
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
    const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
    const bytes = match && unit !== undefined ? Number(match[1]) * unit : NaN;
    if (!Number.isInteger(bytes)) {
      throw new UsageError(`--${option} takes a size in bytes, such as 1048576, 10kB or 100MiB, not "${text}".`);
    }
    if (bytes > max) {
      const mib = Math.floor(max / 1024 ** 2);
      throw new UsageError(`--${option} is at most ${max} bytes, ${mib}MiB and ${max - mib * 1024 ** 2} bytes (the longest string the JavaScript engine holds), not "${text}".`);
    }
    return bytes;
  };
}

/** A duration in milliseconds: 500ms, 3s, 1.5m, 2h, or a number of seconds; at least minMs. */
export function duration(option: string, minMs = 0): (value: unknown) => number {
  return (value) => {
    const text = single(value);
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?$/i.exec(text);
    const ms = m ? Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 }[(m[2] ?? 's').toLowerCase() as 'ms']!) : NaN;
    if (!(ms >= minMs) || !Number.isSafeInteger(ms)) {
      throw new UsageError(`--${option} takes a duration such as 500ms, 3s, 2m or 1h${minMs > 0 ? ` (${minMs} ms or more)` : ''}, not "${text}".`);
    }
    return ms;
  };
}
