// checkUrl against new URL on the corpus's URL values, by the forms bench/real.ts names, interleaved (race): a
// quicker look than `npm run bench -- --only=corpus` while working on the checker. `--profile` loops checkUrl
// alone for a CPU profile (node --cpu-prof dist/scripts/check-classes.js --profile).
// node dist/scripts/check-classes.js [DIR] [--rounds N] [--profile [--form 'backslash/UNC values']]
import { checkUrl } from '../src/check.js';
import { corpusValues } from './corpus-values.js';
import { race } from '../bench/measure.js';
import { FORMS, formOf, whatwg } from '../bench/real-values.js';

const argv = process.argv.slice(2);
const dir = argv.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? '../../shared/corpus/tickets';
const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 21;
const values = corpusValues(dir);

if (argv.includes('--profile')) {
  const form = argv.includes('--form') ? argv[argv.indexOf('--form') + 1]! : undefined;
  const some = form === undefined ? values : values.filter((v) => formOf(v.value) === form);
  const t0 = performance.now();
  const n = Math.ceil(2e6 / some.length);
  for (let r = 0; r < n; r++) for (const v of some) checkUrl(v.value, v.options);
  console.log(`${((performance.now() - t0) * 1000 / (n * some.length)).toFixed(3)} us/value`);
} else {
  const sets: Array<[string, typeof values]> = [['every value', values], ...FORMS.map(([f]): [string, typeof values] => [f, values.filter((v) => formOf(v.value) === f)])];
  for (const [name, set] of sets) {
    const times = race([
      { name: 'check', run: () => { for (const v of set) checkUrl(v.value, v.options); } },
      { name: 'url', run: () => { for (const v of set) whatwg(v.value, v.base); } },
    ], rounds, 3);
    const check = times.get('check')!;
    console.log(`${name.padEnd(14)} ${String(set.length).padStart(5)}  ${((check * 1000) / set.length).toFixed(2)} us/value  ${(check / times.get('url')!).toFixed(2)}x new URL`);
  }
}
