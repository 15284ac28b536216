// npm run bench: jdf-filespec side by side with what a user would pick instead, on the same inputs, one process.
// Flags: --json (machine output), --quick (smaller tickets, fewer rounds), --corpus DIR (real tickets; default
// ../shared/corpus/tickets), --only=corpus,resolve,check,ticket,memory,batch,hostile,packages,watch,startup
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastUri from 'fast-uri';
import { XMLParser } from 'fast-xml-parser';
import { checkUrl, resolveReference, validateTicket } from '../src/index.js';
import { CHECK_CATEGORIES, RESOLVE_CATEGORIES, mixedValues, valuesOf, type Value } from './categories.js';
import { resolveCorpus, smallTicket, ticket } from './corpus.js';
import { sharedCorpus } from './tickets.js';
import { corpusSection } from './real.js';
import { formatTable, race, type Row } from './measure.js';
import { memorySection } from './memory.js';
import { SHAPES, SHAPE_DESCRIPTIONS, shapedTicket } from './shapes.js';
import { packagesSection } from './packages.js';
import { watchSection } from './watch.js';
import { installedCli, startupSection } from './startup.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const want = (section: string) => !only || only.includes(section);
const rows: Row[] = [];
const notes: string[] = [];
const log = (s: string) => { if (!json) process.stderr.write(s + '\n'); };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusAt = args.indexOf('--corpus');
const corpusDir = corpusAt !== -1 && args[corpusAt + 1] !== undefined ? path.resolve(args[corpusAt + 1]!) : sharedCorpus(root);
/** Issue 33's targets, each beside its figure, printed together at the end. */
const targets: Row[] = [];

// 0. corpus: real tickets and their URL values (bench/real.ts), first --------------------------------------------
if (want('corpus')) {
  const section = corpusSection(corpusDir, installedCli(root), quick, log);
  rows.push(...section.rows);
  notes.push(...section.notes);
  targets.push(...section.targets);
}

// 1. resolve ---------------------------------------------------------------------------------------------------
if (want('resolve')) {
  log('resolve: 10,000 realistic (reference, base) pairs ...');
  const pairs = resolveCorpus(10_000);
  const whatwg = (ref: string, base: string) => { try { return new URL(ref, base).href; } catch { return null; } };
  const times = race([
    { name: 'jdf-filespec resolveReference', run: () => { for (const p of pairs) resolveReference(p.ref, p.base); } },
    { name: 'new URL(ref, base).href', run: () => { for (const p of pairs) whatwg(p.ref, p.base); } },
    { name: 'fast-uri resolve', run: () => { for (const p of pairs) fastUri.resolve(p.base, p.ref); } },
  ], quick ? 15 : 41, 5);
  const ours = times.get('jdf-filespec resolveReference')!;
  const url = times.get('new URL(ref, base).href')!;
  const fu = times.get('fast-uri resolve')!;
  const ops = (ms: number) => pairs.length / (ms / 1000);
  rows.push({ section: 'resolve', name: 'jdf-filespec resolveReference', value: ops(ours), unit: 'ops/s' });
  rows.push({ section: 'resolve', name: 'vs new URL (WHATWG, C++)', value: ops(url), unit: 'ops/s', ratio: url / ours, target: '>= 2x', pass: url / ours >= 2 });
  rows.push({ section: 'resolve', name: 'vs fast-uri resolve', value: ops(fu), unit: 'ops/s', ratio: fu / ours, target: '>= 4x', pass: fu / ours >= 4 });
  // Where the three disagree, and why.
  const why = new Map<string, { count: number; example: string }>();
  let agreeAll = 0;
  for (const p of pairs) {
    const a = resolveReference(p.ref, p.base);
    const b = whatwg(p.ref, p.base);
    const c = fastUri.resolve(p.base, p.ref);
    if (a === b && a === c) { agreeAll++; continue; }
    const reasons: string[] = [];
    if (a !== b) {
      if (b !== null && b === a.replace(/^file:\/\/localhost\//i, 'file:///')) reasons.push("WHATWG drops the host 'localhost' (same file: RFC 8089 section 2 says localhost means this machine)");
      else if (b !== null && /^file:\/\/\/[A-Za-z]:\//.test(b.replace(/^file:\/\/localhost\//i, 'file:///')) && !/\/[A-Za-z]:\//.test(a)) reasons.push("WHATWG keeps the drive letter ('..' or '/x' above it), as RFC 8089 E.2.1 does; strict RFC 3986 does not (our drive-lost-in-resolution warning)");
      else reasons.push('WHATWG differs otherwise');
    }
    if (a !== c) reasons.push('fast-uri differs');
    for (const r of reasons) {
      const e = why.get(r) ?? { count: 0, example: `${p.ref}  against  ${p.base}:  ours ${a} | WHATWG ${b} | fast-uri ${c}` };
      e.count++;
      why.set(r, e);
    }
  }
  notes.push(`resolve: all three agree on ${agreeAll} of ${pairs.length} pairs; where they differ:`);
  for (const [r, e] of [...why].sort((x, y) => y[1].count - x[1].count).slice(0, 8)) notes.push(`  ${e.count} x ${r}\n      e.g. ${e.example}`);
}

// 1b. resolve by category: every reference form on its own, against new URL (target >= 2x in each) -----------------
if (want('resolve')) {
  log('resolve: by category ...');
  const whatwg = (ref: string, base: string) => { try { return new URL(ref, base).href; } catch { return null; } };
  for (const [category, make] of Object.entries(RESOLVE_CATEGORIES)) {
    const values = valuesOf(make, 5_000);
    const times = race([
      { name: 'ours', run: () => { for (const v of values) resolveReference(v.value, v.base); } },
      { name: 'url', run: () => { for (const v of values) whatwg(v.value, v.base); } },
    ], quick ? 9 : 21, 3);
    const ratio = times.get('url')! / times.get('ours')!;
    rows.push({ section: 'resolve', name: `${category}: resolveReference vs new URL`, value: values.length / (times.get('ours')! / 1000), unit: 'ops/s', ratio, target: '>= 2x', pass: ratio >= 2 });
  }
}

// 2. check: checkUrl (findings and fixes included) against new URL(value, base) on the same values ------------------
if (want('check')) {
  log('check: checkUrl by category and on the real mix, against new URL ...');
  const whatwg = (v: Value) => { try { return new URL(v.value, v.base).href; } catch { return null; } };
  const sets: Array<[string, Value[], number]> = [['real mix of forms', mixedValues(10_000), 2]];
  for (const [category, make] of Object.entries(CHECK_CATEGORIES)) sets.push([category, valuesOf(make, 3_000), 3]);
  for (const [name, values, limit] of sets) {
    const times = race([
      { name: 'ours', run: () => { for (const v of values) checkUrl(v.value, { base: v.base }); } },
      { name: 'url', run: () => { for (const v of values) whatwg(v); } },
    ], quick ? 7 : 15, 2);
    const ratio = times.get('ours')! / times.get('url')!;
    const perValue = (times.get('ours')! * 1000) / values.length;
    rows.push({ section: 'check', name: `${name}: checkUrl time / new URL time`, value: perValue, unit: 'us/value', ratio, target: `<= ${limit}x`, pass: ratio <= limit });
  }
}

// 3. ticket ----------------------------------------------------------------------------------------------------
if (want('ticket')) {
  const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
  const perRef = new Map<number, number>();
  for (const n of sizes) {
    log(`ticket: ${n.toLocaleString('en')} FileSpecs ...`);
    const text = ticket(n);
    const bytes = new TextEncoder().encode(text);
    const mb = bytes.length / 1e6;
    const rounds = n >= 1_000_000 ? 3 : n >= 100_000 ? 5 : n >= 10_000 ? 21 : 61;
    const times = race([
      { name: 'ours', run: () => validateTicket(bytes, { documentUri: 'file:///srv/hot/ticket.jdf', maxBytes: 2 ** 31 }) },
      { name: 'raw', run: () => new XMLParser({ ignoreAttributes: false }).parse(text) },
    ], rounds, 1);
    const ours = times.get('ours')!;
    const raw = times.get('raw')!;
    perRef.set(n, ours / n);
    rows.push({ section: 'ticket', name: `${n.toLocaleString('en')} FileSpecs (${mb.toFixed(1)} MB): validateTicket`, value: mb / (ours / 1000), unit: 'MB/s', ratio: raw / ours, target: '>= 1.0x raw parse', pass: raw / ours >= 1.0 });
    rows.push({ section: 'ticket', name: `${n.toLocaleString('en')} FileSpecs: raw fast-xml-parser parse`, value: mb / (raw / 1000), unit: 'MB/s' });
    rows.push({ section: 'ticket', name: `${n.toLocaleString('en')} FileSpecs: time per reference`, value: (ours / n) * 1000, unit: 'us' });
  }
  const big = Math.max(...sizes);
  const linear = perRef.get(big)! / perRef.get(10_000)!;
  rows.push({ section: 'ticket', name: `time per reference, ${big.toLocaleString('en')} vs 10,000`, value: linear, unit: 'x', target: '<= 1.3x', pass: linear <= 1.3 });
}

// 3b. ticket shapes: what hot folders really receive, against the raw default parse of the same bytes ------------
if (want('ticket')) {
  const sizes = quick ? [10_000] : [10_000, 100_000];
  const perRef = new Map<number, number>();
  for (const shape of SHAPES) {
    for (const n of shape === 'mix' && !quick ? [...sizes, 1_000_000] : sizes) {
      log(`ticket: ${shape}, ${n.toLocaleString('en')} FileSpecs ...`);
      const text = shapedTicket(shape, n);
      const bytes = new TextEncoder().encode(text);
      const rounds = n >= 1_000_000 ? 3 : n >= 100_000 ? 5 : 15;
      const times = race([
        { name: 'ours', run: () => validateTicket(bytes, { documentUri: 'file:///srv/hot/ticket.jdf', maxBytes: 2 ** 31 }) },
        { name: 'raw', run: () => new XMLParser({ ignoreAttributes: false }).parse(text) },
      ], rounds, 1);
      const ratio = times.get('raw')! / times.get('ours')!;
      const floor = shape === 'mix' ? 1.5 : 1.0;
      if (shape === 'mix') perRef.set(n, times.get('ours')! / n);
      rows.push({ section: 'ticket', name: `${shape} (${SHAPE_DESCRIPTIONS[shape]}), ${n.toLocaleString('en')} FileSpecs: vs raw parse`, value: (times.get('ours')! * 1000) / n, unit: 'us/ref', ratio, target: `>= ${floor}x raw parse`, pass: ratio >= floor });
      if (shape === 'broken') targets.push({ ...rows.at(-1)!, name: `broken references, ${n.toLocaleString('en')} FileSpecs: validateTicket vs raw parse` });
    }
  }
  if (perRef.has(1_000_000)) {
    const linear = perRef.get(1_000_000)! / perRef.get(10_000)!;
    rows.push({ section: 'ticket', name: 'mix: time per reference, 1,000,000 vs 10,000', value: linear, unit: 'x', target: '<= 1.3x', pass: linear <= 1.3 });
  }
}

// 4. memory, each figure from a process of its own (bench/memory.ts) --------------------------------------------
if (want('memory')) {
  const memory = memorySection(root, quick, log);
  rows.push(...memory.rows);
  notes.push(...memory.notes);
}

// 5. batch -----------------------------------------------------------------------------------------------------
if (want('batch')) {
  const count = quick ? 1_000 : 5_000;
  log(`batch: jdf-filespec validate over ${count} small tickets ...`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jfs-batch-'));
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, `q${i % 50}`);
    if (i < 50) mkdirSync(sub);
    writeFileSync(path.join(sub, `job${i}.jdf`), smallTicket(i));
  }
  const cli = installedCli(root); // what an install runs, as the startup section does
  const runCli = (extra: string[]) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'validate', dir, '--format', 'json', ...extra], { encoding: 'utf8', maxBuffer: 1 << 30 });
    return { ms: performance.now() - t0, out: r.stdout, status: r.status };
  };
  runCli([]);
  const results = { parallel: [] as number[], single: [] as number[] };
  let outParallel = '';
  let outSingle = '';
  for (let r = 0; r < (quick ? 1 : 3); r++) {
    const p = runCli([]);
    const s = runCli(['--jobs', '1']);
    results.parallel.push(p.ms);
    results.single.push(s.ms);
    outParallel = p.out;
    outSingle = s.out;
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const tps = (ms: number) => count / (ms / 1000);
  rows.push({ section: 'batch', name: `validate ${count} tickets, default parallelism`, value: tps(med(results.parallel)), unit: 'tickets/s', target: '>= 1200/s', pass: tps(med(results.parallel)) >= 1200 });
  rows.push({ section: 'batch', name: `validate ${count} tickets, --jobs 1`, value: tps(med(results.single)), unit: 'tickets/s' });
  rows.push({ section: 'batch', name: 'reports identical', value: outParallel === outSingle && outParallel.length > 0 ? 1 : 0, unit: '', pass: outParallel === outSingle && outParallel.length > 0 });
  rmSync(dir, { recursive: true, force: true });
}

// 5b. watch: the hot folder against validate on the same tickets (bench/watch.ts) ----------------------------------
if (want('watch')) {
  const w = await watchSection(quick, log);
  rows.push(...w.rows);
  notes.push(...w.notes);
}

// 6. hostile ---------------------------------------------------------------------------------------------------
if (want('hostile')) {
  log('hostile: time against input size ...');
  const cases: Array<[string, (n: number) => string]> = [
    ['"../" x n in one URL', (n) => `<JDF><RunList Directory="file:///srv/"><FileSpec URL="${'../'.repeat(n)}a.pdf"/></RunList></JDF>`],
    ['"%" x n in one URL', (n) => `<JDF><FileSpec URL="${'%'.repeat(n)}"/></JDF>`],
    ['n nested elements', (n) => `<JDF>${'<a>'.repeat(Math.min(n, 499))}${'<b/>'.repeat(Math.max(0, n - 499))}${'</a>'.repeat(Math.min(n, 499))}</JDF>`],
    ['n FileSpecs with raw spaces', (n) => `<JDF><RunList Directory="file:///srv/">${'<FileSpec URL="a b.pdf"/>'.repeat(n / 10)}</RunList></JDF>`],
  ];
  for (const [name, make] of cases) {
    const small = make(100_000);
    const large = make(1_000_000);
    const t = race([
      { name: 'small', run: () => validateTicket(small, { documentUri: 'file:///srv/t.jdf' }) },
      { name: 'large', run: () => validateTicket(large, { documentUri: 'file:///srv/t.jdf' }) },
    ], 3, 1);
    const ratio = t.get('large')! / t.get('small')!;
    rows.push({ section: 'hostile', name: `${name}: n = 1,000,000 vs 100,000`, value: t.get('large')!, unit: 'ms', ratio, target: '~10x (linear)', pass: ratio < 20 });
  }
  let laughs = '<!DOCTYPE JDF [<!ENTITY lol "lol">';
  for (let i = 1; i <= 9; i++) laughs += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
  laughs += ']><JDF><FileSpec URL="&lol9;"/></JDF>';
  const t = race([{ name: 'laughs', run: () => validateTicket(laughs) }], 11, 2);
  rows.push({ section: 'hostile', name: 'billion laughs', value: t.get('laughs')!, unit: 'ms', target: 'milliseconds', pass: t.get('laughs')! < 50 });
}

// 7. packages (bench/packages.ts): a 2 GB MIME package and a zip, each reader in a process of its own -------------
if (want('packages')) {
  const section = packagesSection(root, quick, log);
  rows.push(...section.rows);
  notes.push(...section.notes);
}

// 8. startup: cold start of the CLI against a bare node (bench/startup.ts) ----------------------------------------
if (want('startup')) {
  log('startup: fresh processes, wall time vs node -e 0 ...');
  const startup = startupSection(root, quick ? 5 : 15);
  rows.push(...startup);
  targets.push(...startup.filter((r) => r.target !== undefined).map((r) => ({ ...r, name: `cold start: ${r.name}` })));
}

const machine = { node: process.version, cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown'}`, memory: `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`, platform: `${os.platform()} ${os.arch()}` };
if (json) {
  process.stdout.write(JSON.stringify({ machine, rows, targets, notes }, null, 2) + '\n');
} else {
  process.stdout.write(`jdf-filespec benchmark  (node ${machine.node}, ${machine.cpus}, ${machine.memory}, ${machine.platform})\n\n`);
  process.stdout.write(formatTable(rows) + '\n\n' + notes.join('\n') + (notes.length ? '\n' : ''));
  if (targets.length > 0) process.stdout.write(`\nissue 33's targets, each beside its figure (from the rows above):\n\n${formatTable(targets.map((r) => ({ ...r, section: 'target' })))}\n`);
}
