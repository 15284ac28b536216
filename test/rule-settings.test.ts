// Issue 28, section 7: the shop decides which rules report and how loud, from three places: validateTicket's
// `rules` (the config's "rules", --rule CODE:SETTING) and the ticket's own comments
// (<!-- jdf-filespec-disable-next-line CODE -->, jdf-filespec-disable / -enable). Positions below are counted by
// hand in the fixtures; the SARIF output is held to the official SARIF 2.1.0 schema.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configSchema } from '../src/node/config-file.js';
import { parseConfig } from '../src/config/parse.js';
import { buildReport, formatSarif, ruleCatalog, validateTicket } from '../src/index.js';
import { projectRoot } from './helpers.js';
import { sarifSchema } from './sarif-schema.js';
import { drop, exited, makeDirs, routed, stopAll, stopLater, ticketXml, until } from './watch-helpers.js';

// Line 3: a.pdf has a raw space (unescaped-space, an error) and no drive (root-without-drive, a warning for any platform).
const LINES = [
  '<JDF Version="1.4"><ResourcePool>',
  '<!-- jdf-filespec-disable-next-line unescaped-space - the RIP takes raw spaces -->',
  '<FileSpec URL="file:///Jobs/a b.pdf"/>',
  '<FileSpec URL="file:///Jobs/c d.pdf"/>',
  '<!-- jdf-filespec-disable -->',
  '<FileSpec URL="file:///Jobs/e f.pdf"/>',
  '<!-- jdf-filespec-enable -->',
  '<FileSpec URL="file:///Jobs/g h.pdf"/>',
  '<!-- jdf-filespec-disable-next-line root-without-driv -->',
  '<FileSpec URL="file:///C:/Jobs/ok.pdf"/>',
  '</ResourcePool></JDF>',
];
const TICKET = LINES.join('\n');

/** "value code severity" of every shown finding, and of every suppressed one with the directive's line. */
function shown(r: ReturnType<typeof validateTicket>): string[] {
  return r.references.flatMap((x) => x.findings.map((f) => `${x.value} ${f.code} ${f.severity}`));
}
function silenced(r: ReturnType<typeof validateTicket>): string[] {
  return r.references.flatMap((x) => (x.suppressed ?? []).map((f) => `${x.value} ${f.code} @${f.suppressions[0]!.line}${f.suppressions[0]!.justification ? ` "${f.suppressions[0]!.justification}"` : ''}`));
}

test('without settings or directives every rule reports at its catalog severity', () => {
  const r = validateTicket(LINES.filter((l) => !l.includes('jdf-filespec-')).join('\n'));
  assert.equal(shown(r).filter((s) => s.startsWith('file:///Jobs/a b.pdf')), ['file:///Jobs/a b.pdf unescaped-space error', 'file:///Jobs/a b.pdf root-without-drive warning']);
});

test('rules: off drops a rule (and its fix), another severity changes it', () => {
  const r = validateTicket(TICKET, { rules: { 'root-without-drive': 'off', 'unescaped-space': 'warning' } });
  assert.equal(shown(r), ['file:///Jobs/c d.pdf unescaped-space warning', 'file:///Jobs/g h.pdf unescaped-space warning']);
  // The space's fix is still the value's; root-without-drive has none.
  assert.is(r.references.find((x) => x.value === 'file:///Jobs/c d.pdf')!.fixed, 'file:///Jobs/c%20d.pdf');
  const off = validateTicket('<JDF><ResourcePool><FileSpec URL="file:///C:/Jobs/c d.pdf"/></ResourcePool></JDF>', { rules: { 'unescaped-space': 'off' } });
  assert.equal(off.references[0]!.findings, []);
  assert.is(off.references[0]!.fixed, undefined, 'a rule that is off is not fixed');
});

test('disable-next-line silences the next start tag only; disable ... enable a span; no code: every rule', () => {
  const r = validateTicket(TICKET);
  assert.equal(shown(r), [
    'file:///Jobs/a b.pdf root-without-drive warning',
    'file:///Jobs/c d.pdf unescaped-space error',
    'file:///Jobs/c d.pdf root-without-drive warning',
    'file:///Jobs/g h.pdf unescaped-space error',
    'file:///Jobs/g h.pdf root-without-drive warning',
  ]);
  assert.equal(silenced(r), [
    'file:///Jobs/a b.pdf unescaped-space @2 "the RIP takes raw spaces"',
    'file:///Jobs/e f.pdf unescaped-space @5',
    'file:///Jobs/e f.pdf root-without-drive @5',
  ]);
  // A silenced fix is not applied either: a b.pdf keeps its space.
  assert.is(r.references[0]!.fixed, undefined);
});

test('a directive naming no rule is a warning at the name, with the nearest code', () => {
  const r = validateTicket(TICKET);
  const f = r.findings.find((x) => x.code === 'unknown-rule-in-directive')!;
  assert.is(f.severity, 'warning');
  // '<!-- jdf-filespec-disable-next-line ' is 36 characters: the name starts at column 37 of line 9.
  assert.equal([f.line, f.column], [9, 37]);
  assert.ok(f.message.includes("did you mean 'root-without-drive'?"), f.message);
});

test('reportUnusedDisableDirectives: a warning at each directive that silences nothing', () => {
  const ticket = TICKET.replace('<FileSpec URL="file:///Jobs/a b.pdf"/>', '<FileSpec URL="file:///Jobs/a%20b.pdf"/>');
  assert.not.ok(validateTicket(ticket).findings.some((f) => f.code === 'unused-disable-directive'), 'only when asked');
  const r = validateTicket(ticket, { reportUnusedDisableDirectives: true });
  const unused = r.findings.filter((f) => f.code === 'unused-disable-directive');
  assert.equal(unused.map((f) => [f.line, f.column, f.severity]), [[2, 1, 'warning']]);
  // With the rule it names off, the directive silences nothing either.
  const off = validateTicket(TICKET, { reportUnusedDisableDirectives: true, rules: { 'unescaped-space': 'off' } });
  assert.equal(off.findings.filter((f) => f.code === 'unused-disable-directive').map((f) => f.line), [2]);
});

test("ESLint's ' -- reason' is read too (though XML forbids '--' in a comment, which is reported)", () => {
  const r = validateTicket('<JDF><ResourcePool>\n<!-- jdf-filespec-disable-next-line unescaped-space -- raw spaces -->\n<FileSpec URL="file:///C:/a b.pdf"/></ResourcePool></JDF>');
  assert.equal(silenced(r), ['file:///C:/a b.pdf unescaped-space @2 "raw spaces"']);
  assert.ok(r.findings.some((f) => f.code === 'comment-double-hyphen'));
});

test('config: rules are checked against the catalog, each problem at its line and column', () => {
  const good = parseConfig('{ "rules": { "root-without-drive": "off", "unknown-scheme": "error" } }', configSchema());
  assert.ok('config' in good);
  const text = '{\n  "rules": {\n    "root-without-driv": "off",\n    "unknown-scheme": "loud"\n  }\n}\n';
  const bad = parseConfig(text, configSchema());
  assert.ok(!('config' in bad));
  const lines = bad.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
  assert.ok(lines.some((l) => l.startsWith('4:23 rules.unknown-scheme: must be equal to one of the allowed values')), lines.join('\n'));
  const typo = parseConfig('{\n  "rules": {\n    "root-without-driv": "off"\n  }\n}\n', configSchema());
  assert.equal(!('config' in typo) && typo.problems.map((p) => `${p.line}:${p.column} ${p.message}`), ["3:5 rules.root-without-driv: 'root-without-driv' is no rule of jdf-filespec (did you mean 'root-without-drive'?)"]);
});

const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');

test('CLI: --rule over the config, bad values exit 2, JSON counts the suppressed, SARIF writes inSource suppressions', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rule-settings-'));
  try {
    writeFileSync(path.join(dir, 't.jdf'), TICKET);
    writeFileSync(path.join(dir, 'jdf-filespec.config.json'), JSON.stringify({ rules: { 'root-without-drive': 'off' } }));
    const run = (...args: string[]) => spawnSync(process.execPath, [main, 'validate', 't.jdf', ...args], { encoding: 'utf8', cwd: dir });
    const json = run('-f', 'json');
    const report = JSON.parse(json.stdout);
    // Shown: c d.pdf and g h.pdf's spaces (errors) and the directive's typo (a warning); silenced: the spaces of a b.pdf and e f.pdf.
    assert.equal(report.summary, { files: 1, references: 5, error: 2, warning: 1, info: 0, suppressed: 2 });
    assert.ok(run().stdout.endsWith('1 file, 5 references: 2 errors, 1 warning, 0 info; 2 suppressed by directives\n'), run().stdout);
    const over = JSON.parse(run('-f', 'json', '--rule', 'root-without-drive:error', '--rule', 'unescaped-space:info').stdout);
    assert.equal([over.summary.error, over.summary.info], [3, 2]);
    for (const [bad, says] of [['root-without-driv:off', "did you mean 'root-without-drive'?"], ['unescaped-space:warn', "did you mean 'warning'?"], ['unescaped-space', 'CODE:SETTING']] as const) {
      const r = run('--rule', bad);
      assert.is(r.status, 2, bad);
      assert.ok(r.stderr.includes(says), r.stderr);
    }
    const unused = JSON.parse(run('-f', 'json', '--report-unused-disable-directives', '--rule', 'unescaped-space:off').stdout);
    // Both rules off (the config's and --rule's): neither the directive of line 2 nor the span of line 5 silences anything.
    assert.equal(unused.files[0].findings.filter((f: any) => f.code === 'unused-disable-directive').map((f: any) => f.line), [2, 5]);
    const sarif = JSON.parse(run('-f', 'sarif').stdout);
    assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors?.slice(0, 5), null, 1));
    const suppressed = sarif.runs[0].results.filter((x: any) => x.suppressions);
    assert.equal(suppressed.map((x: any) => [x.ruleId, x.suppressions[0].kind, x.suppressions[0].location.physicalLocation.region.startLine]), [['unescaped-space', 'inSource', 2], ['unescaped-space', 'inSource', 5]]);
    assert.is(suppressed[0].suppressions[0].justification, 'the RIP takes raw spaces');
    const badConfig = path.join(dir, 'bad.json');
    writeFileSync(badConfig, '{\n  "rules": { "unescaped-spaces": "off" }\n}\n');
    const r = run('--config', badConfig);
    assert.is(r.status, 2);
    assert.ok(r.stderr.includes(`${badConfig}:2:14: rules.unescaped-spaces: 'unescaped-spaces' is no rule of jdf-filespec (did you mean 'unescaped-space'?)`), r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SARIF: in a package part the suppression names the package file alone, as the result does (lines are the part\'s)', () => {
  const ticket = validateTicket(TICKET);
  const report = buildReport([{ path: 'job.mjm', part: '<ticket>', ...ticket }], '1');
  const sarif = JSON.parse(formatSarif(report, ruleCatalog));
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors?.slice(0, 5), null, 1));
  const suppressed = sarif.runs[0].results.filter((x: any) => x.suppressions);
  assert.is(suppressed.length, 3);
  for (const x of suppressed) assert.equal(x.suppressions[0].location, { physicalLocation: { artifactLocation: { uri: 'job.mjm' } } });
});

test('CLI: a ticket over --max-bytes is not read; its file-too-large follows --rule too', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rule-settings-'));
  try {
    writeFileSync(path.join(dir, 't.jdf'), TICKET);
    const run = (...args: string[]) => spawnSync(process.execPath, [main, 'validate', 't.jdf', '-f', 'json', '--max-bytes', '10', ...args], { encoding: 'utf8', cwd: dir });
    assert.equal(JSON.parse(run().stdout).files[0].findings.map((f: any) => `${f.code} ${f.severity}`), ['file-too-large error']);
    const warned = run('--rule', 'file-too-large:warning');
    assert.is(warned.status, 0);
    assert.equal(JSON.parse(warned.stdout).files[0].findings.map((f: any) => `${f.code} ${f.severity}`), ['file-too-large warning']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: a directive silences what --check-exists finds too', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rule-settings-'));
  try {
    writeFileSync(path.join(dir, 't.jdf'), '<JDF><ResourcePool>\n<!-- jdf-filespec-disable-next-line file-missing - made by the RIP later -->\n<FileSpec URL="later.pdf"/>\n<FileSpec URL="gone.pdf"/>\n</ResourcePool></JDF>');
    const r = spawnSync(process.execPath, [main, 'validate', 't.jdf', '-f', 'json', '--check-exists', '--report-unused-disable-directives'], { encoding: 'utf8', cwd: dir });
    const report = JSON.parse(r.stdout);
    const refs = report.files[0].references;
    assert.equal(refs.map((x: any) => x.findings.map((f: any) => f.code)), [[], ['file-missing']]);
    assert.equal(refs[0].suppressed.map((f: any) => f.code), ['file-missing']);
    assert.equal(report.files[0].findings, [], 'the directive is used');
    assert.is(report.summary.suppressed, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('watch takes the config\'s rules: a ticket whose only error is a rule set off goes to OK', async () => {
  const d = makeDirs('jfs-rules-');
  try {
    const config = path.join(d.base, 'rules.json');
    writeFileSync(config, JSON.stringify({ rules: { 'unescaped-space': 'off' } }));
    drop(d, 'space.jdf', ticketXml('space', { broken: true }));
    const proc = spawn(process.execPath, [main, 'watch', d.in, '--ok', d.ok, '--error', d.error, '--settle', '150ms', '--poll-interval', '200ms', '--config', config, '--platform', 'unix'], { stdio: ['ignore', 'pipe', 'pipe'] });
    stopLater(() => proc.kill('SIGKILL'));
    await until(() => routed(d).length === 1, 30_000, 'the ticket to be routed');
    proc.kill('SIGINT');
    assert.is(await exited(proc), 0);
    assert.equal(routed(d).map((r) => [r.folder, r.name]), [['ok', 'space.jdf']]);
  } finally {
    await stopAll();
    rmSync(d.base, { recursive: true, force: true });
  }
});

test.run();
