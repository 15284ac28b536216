// serve's keep (--keep, the config's serve.keep; README "Retention"): how long a finished queue entry stays in the
// outbox. A duration (500ms, 3s, 90m, 12h, 30d; a bare number is seconds) of at least an hour, or "forever".
// Pure: the CLI reads --keep with it, serve the config's value; schemas/config.schema.json's pattern for
// serve.keep takes exactly the values this takes (test/config-keep.test.ts holds the two together).

/** The shortest keep: a claim kept shorter would let a sender's late retry of a submission count as a new job
 * (checked and passed on again). */
const MIN_KEEP_MS = 3_600_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** What keep takes, said to a person. */
export const KEEP_TAKES = 'a duration of 1h or more such as 30d, 12h or 90m, or forever';

/**
 * A keep as written (no surrounding blanks) to milliseconds, or 'forever'; undefined when it is not a duration or
 * is under an hour. The hour is compared on the decimal as written (0.0417d is an hour or more, 0.04166d is
 * not), not on a rounded float; a keep beyond Number.MAX_SAFE_INTEGER ms (285,000 years) is held to it.
 */
export function parseKeep(text: string): number | 'forever' | undefined {
  if (/^forever$/i.test(text)) return 'forever';
  const m = /^(\d+)(?:\.(\d+))?(?:\s*(ms|s|m|min|h|d))?$/i.exec(text);
  if (!m) return undefined;
  const [, whole, fraction = '', unit = 's'] = m;
  const unitMs = UNIT_MS[unit.toLowerCase()]!;
  // whole.fraction x unitMs >= MIN_KEEP_MS, in integers: (whole fraction as digits) x unitMs >= MIN_KEEP_MS x 10^|fraction|.
  if (BigInt(whole! + fraction) * BigInt(unitMs) < BigInt(MIN_KEEP_MS) * 10n ** BigInt(fraction.length)) return undefined;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(MIN_KEEP_MS, Math.round(Number(`${whole}.${fraction || '0'}`) * unitMs)));
}
