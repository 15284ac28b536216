// `npm run corpus:jmf`: every JMF and XJMF message of the shared corpus (../shared/corpus/tickets: Alces'
// templates, Bambi's and FluentJdf's messages, the CIP4 schema samples) sent through handleJmf, as an MIS would
// POST it, and the table of what each gets back: per repository, the answers by message type and ReturnCode.
// Nothing is fetched: an http: ticket URL is answered as not accessible (120), as an unreachable one would be.
// Skipped with a message when the corpus is not here. Not part of `npm test`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handleJmf, type JmfOptions } from '../src/node/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(here, '..', '..');
const corpus = path.resolve(project, process.argv[2] ?? '../shared/corpus/tickets');
const manifestFile = path.join(corpus, 'manifest.json');

if (!existsSync(manifestFile)) {
  console.log(`corpus:jmf: skipped (no ${path.relative(project, manifestFile)}; the shared corpus is not here)`);
  process.exit(0);
}

interface ManifestEntry { repo: string; stored: string }
const entries = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: ManifestEntry[] }).files;
/** A JMF or XJMF message: its root element, after any declaration, comments and BOM. */
const ROOT = /^(?:\uFEFF)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--(?:(?!-->)[\s\S])*-->\s*)*<(?:[\w.-]+:)?(X?JMF)[\s>/]/;

const outbox = mkdtempSync(path.join(tmpdir(), 'corpus-jmf-'));
const noFetch = (() => Promise.reject(new Error('not fetched in the corpus run'))) as unknown as typeof fetch;
const options: JmfOptions = { outbox, validate: { profile: 'jdf' }, maxBytes: 16 * 1024 * 1024, toolVersion: 'corpus', fetch: noFetch };

/** The row of a message that holds no Query or Command (a Signal, a Response): nothing to answer. */
const NONE = '(no query or command: not answered)';
/** repo -> "Type ReturnCode" -> count */
const table = new Map<string, Map<string, number>>();
const perRepo = new Map<string, number>();
let messages = 0;
let notes = 0;
let crashes = 0;
/** Why a message was refused or a ticket not had (ReturnCodes 3 and 120), in words with the URL taken out. */
const reasons = new Map<string, number>();
const started = process.hrtime.bigint();
try {
  for (const entry of entries) {
    const file = path.join(corpus, entry.stored);
    const bytes = readFileSync(file);
    const root = ROOT.exec(bytes.subarray(0, 4096).toString('utf8'));
    if (!root) continue;
    messages++;
    // Each file is its own sender's message: many share a Command ID ("C1"), which one sender's repeat would be.
    rmSync(path.join(outbox, '.claims'), { recursive: true, force: true });
    perRepo.set(entry.repo, (perRepo.get(entry.repo) ?? 0) + 1);
    const type = root[1] === 'XJMF' ? 'application/vnd.cip4-xjmf+xml' : 'application/vnd.cip4-jmf+xml';
    let body: string;
    try {
      const answer = await handleJmf({ method: 'POST', url: '/jmf', headers: { 'content-type': type, host: 'corpus' }, body: (async function* () { yield bytes; })(), signal: new AbortController().signal }, options);
      body = String(answer.body);
    } catch (error) {
      crashes++;
      console.log(`CRASH ${entry.stored}: ${(error as Error).message}`);
      continue;
    }
    notes += (body.match(/<Notification /g) ?? []).length;
    for (const r of body.matchAll(/ReturnCode="(3|120)"[^>]*>\s*(?:<Header[^>]*>\s*)?<Notification[^>]*><Comment>([^<]*)/g)) {
      const why = `${r[1]}: ${r[2]!.replace(/^\S+ (is not|could not|names|answered)/, 'URL $1').replace(/\(line \d+, column \d+\)|\(File URL host.*\)|: not fetched.*|\d+ bytes/g, '').trim()}`;
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    const row = table.get(entry.repo) ?? new Map<string, number>();
    table.set(entry.repo, row);
    const answers = [...body.matchAll(/<(?:Response Type="([^"]*)"[^>]*?|Response(\w+)) ReturnCode="(\d+)"|<Response [^>]*?Type="([^"]*)" ReturnCode="(\d+)"/g)];
    if (answers.length === 0) row.set(NONE, (row.get(NONE) ?? 0) + 1);
    for (const a of answers) {
      const key = `${a[1] ?? a[2] ?? a[4]} ${a[3] ?? a[5]}`;
      row.set(key, (row.get(key) ?? 0) + 1);
    }
  }
} finally {
  rmSync(outbox, { recursive: true, force: true });
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

console.log(`corpus:jmf: ${messages} JMF/XJMF messages of ${entries.length} corpus files, through handleJmf in ${seconds.toFixed(1)} s; ${notes} Notifications; ${crashes} crashes\n`);
console.log('| Repository | Files | 0 (KnownMessages, QueueStatus) | 120 (Submit: ticket not had) | 200 (Submit: findings) | 105 (Resubmit: unknown entry) | 5 (not answered here) | other | No Query or Command |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [repo, row] of [...table].sort((a, b) => (perRepo.get(b[0]) ?? 0) - (perRepo.get(a[0]) ?? 0) || a[0].localeCompare(b[0]))) {
  const count = (code: string) => [...row].filter(([k]) => k.endsWith(` ${code}`)).reduce((n, [, v]) => n + v, 0);
  const known = ['0', '120', '200', '105', '5'].map(count);
  const none = row.get(NONE) ?? 0;
  const other = [...row].reduce((n, [, v]) => n + v, 0) - none - known.reduce((x, y) => x + y, 0);
  console.log(`| ${repo} | ${perRepo.get(repo)} | ${known.join(' | ')} | ${other} | ${none} |`);
}
console.log('\nEach answer by message type and ReturnCode:');
for (const [repo, row] of table) console.log(`  ${repo}: ${[...row].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k}: ${n}`).join(', ')}`);
console.log('\n| ReturnCode: why | Messages |\n|---|---:|');
for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) console.log(`| ${why.replace(/\|/g, '\\|')} | ${n} |`);
