// A value met again in the same context (base, role, container, and the ticket's options) is not checked again:
// validateTicket reuses checkUrl's answer and the reference rules' reports (src/ticket/reference.ts: for the value
// just before, and for a value met twice already), and makes each place's findings from them. The oracle is the
// same ticket with nothing remembered (remembering.perContext = 0: every reference checked on its own, in a
// context of its own); the reports must be the same, byte for byte.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, validateTicket, type TicketReport, type ValidateOptions } from '../src/index.js';
import { rules } from '../src/rules/catalog.js';
import { placed } from '../src/ticket/finding.js';
import { remembering } from '../src/ticket/reference.js';
import { projectRoot } from './helpers.js';

const OPTIONS: ValidateOptions = { documentUri: 'file:///srv/hot/ticket.jdf' };
const DEFAULT = { ...remembering };

function withRemembered<T>(perContext: number, run: () => T, probe = DEFAULT.probe): T {
  Object.assign(remembering, { perContext, probe });
  try {
    return run();
  } finally {
    Object.assign(remembering, DEFAULT);
  }
}

/** The report with nothing remembered. */
const fresh = (input: string | Uint8Array, options = OPTIONS) => withRemembered(0, () => validateTicket(input, options));

/** The report is the same as the oracle's, in JSON (key order included) and as objects. */
function assertSame(report: TicketReport, input: string | Uint8Array, options = OPTIONS, label = ''): void {
  const expected = fresh(input, options);
  assert.is(JSON.stringify(report, null, 1), JSON.stringify(expected, null, 1), label);
  assert.equal(report, expected, label);
}

const jdf = (body: string, version = '1.4', encoding = 'UTF-8') =>
  `<?xml version="1.0" encoding="${encoding}"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="${version}"><ResourcePool>\n${body}\n</ResourcePool></JDF>`;
const runList = (directory: string, urls: string[]) =>
  `<RunList Directory="${directory}">\n${urls.map((u) => `  <LayoutElement><FileSpec URL="${u}"/></LayoutElement>\n`).join('')}</RunList>`;
const urlsOf = (r: TicketReport) => r.references.filter((x) => x.attribute === 'URL');

const samples = readdirSync(new URL('samples/', projectRoot))
  .filter((name) => /\.(jdf|xjdf|jmf|mjm)$/.test(name))
  .map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`samples/${name}`, projectRoot))) }));

test('every sample: the same report as with every reference checked on its own', () => {
  assert.ok(samples.length >= 10);
  for (const { name, bytes } of samples) assertSame(validateTicket(bytes, OPTIONS), bytes, OPTIONS, name);
});

test('one value at many places under one Directory: reused, each place its own findings and position', () => {
  const text = jdf(runList('file:///c:/Jobs/4711/', ['p 1.pdf', 'ok.pdf', 'p 1.pdf', 'p 1.pdf', 'ok.pdf', 'p 1.pdf']));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  const [a, , b, c, , d] = urlsOf(r);
  assert.equal([a!.line, b!.line, c!.line, d!.line], [4, 6, 7, 9]);
  assert.equal(c!.findings.map((f) => [f.code, f.line, f.column]), [['unescaped-space', 7, 34]]);
  // Each place's finding is its own object; its arguments and words are one.
  const [fa, fb, fc, fd] = [a, b, c, d].map((x) => x!.findings[0]!);
  assert.ok(fa !== fb && fb !== fc && fc !== fd);
  assert.ok(fa!.args === fb!.args && fb!.args === fc!.args && fc!.args === fd!.args);
});

test('different values with the same finding share its arguments and words, and keep their own fixes and places', () => {
  const text = jdf(runList('file:///c:/Jobs/', ['a b.pdf', 'c d.pdf', 'e  f.pdf', 'g h.pdf']));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  const spaces = urlsOf(r).map((x) => x.findings.find((f) => f.code === 'unescaped-space')!);
  assert.ok(spaces[0]!.args === spaces[1]!.args && spaces[1]!.args === spaces[3]!.args && spaces[0]!.message === spaces[3]!.message);
  assert.ok(spaces[2]!.args !== spaces[0]!.args, 'two spaces are other arguments');
  assert.equal(spaces.map((f) => f.fix), ['a%20b.pdf', 'c%20d.pdf', 'e%20%20f.pdf', 'g%20h.pdf']);
});

test('the same value under two Directories, with and without their trailing "/": four answers', () => {
  const urls = ['a b.pdf', '../x.pdf', 'C:\\x.pdf', 'pages/p1.pdf'];
  const text = jdf([
    runList('file:///c:/Jobs/4711/', urls), runList('file://server/share/Jobs/', urls),
    runList('file:///c:/Jobs/4711', urls), runList('file://server/share/Jobs', urls), runList('file:///c:/Jobs/4711/', urls),
  ].join('\n'));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  const resolved = urlsOf(r).filter((x) => x.value === 'pages/p1.pdf').map((x) => x.resolved);
  assert.equal(resolved, ['file:///c:/Jobs/4711/pages/p1.pdf', 'file://server/share/Jobs/pages/p1.pdf', 'file:///c:/Jobs/pages/p1.pdf', 'file://server/share/pages/p1.pdf', 'file:///c:/Jobs/4711/pages/p1.pdf']);
  const disagree = urlsOf(r).filter((x) => x.value === 'pages/p1.pdf').map((x) => x.findings.map((f) => f.code).join());
  assert.equal(disagree, ['', '', 'consumers-disagree', 'consumers-disagree', '']);
});

test('the same value against the same base URI, once a Directory and once the ticket\'s folder', () => {
  // Only a Directory gives the string join reading (consumers-disagree): the source of a base is part of it.
  const text = jdf(['<FileSpec URL="/abs/x.pdf"/><FileSpec URL="../x.pdf"/>', runList('file:///srv/hot/', ['/abs/x.pdf', '../x.pdf'])].join('\n'));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  assert.equal(urlsOf(r).map((x) => [x.base, x.baseSource, x.findings.map((f) => f.code).join()]), [
    ['file:///srv/hot/', 'document', ''], ['file:///srv/hot/', 'document', ''],
    ['file:///srv/hot/', 'directory', 'consumers-disagree'], ['file:///srv/hot/', 'directory', ''],
  ]);
});

test('the same value as FileSpec/@URL and in other attributes, in and out of a container', () => {
  const text = jdf([
    '<FileSpec URL="pt://host/route" CommentURL="pt://host/route"/>',
    '<FileSpec URL="a b.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec>',
    '<FileSpec URL="a b.pdf" CommentURL="a b.pdf"/>',
    '<FileSpec URL="file:///c:/a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec>',
    '<FileSpec URL="file:///c:/a.pdf"/>',
  ].join('\n'));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  // A vendor's scheme is worded again, as info, in a route only: the FileSpec beside it keeps its warning.
  const scheme = r.references.filter((x) => x.value === 'pt://host/route').map((x) => [x.attribute, x.findings.map((f) => `${f.code} ${f.severity}`)]);
  assert.equal(scheme, [['URL', ['unknown-scheme warning']], ['CommentURL', ['unknown-scheme info']]]);
  const absolute = r.references.filter((x) => x.value === 'file:///c:/a.pdf').map((x) => x.findings.map((f) => f.code));
  assert.equal(absolute, [['container-url-not-relative'], []]);
});

test('the same value written with different references: each place keeps its own columns and XML problems', () => {
  // Decoded, all four are "a&x;b c.pdf" (the value starts in column 33); where "&x;" is an undefined entity, the
  // findings inside it are dropped.
  const text = jdf(runList('file:///c:/Jobs/', ['a&amp;x;b c.pdf', 'a&#x26;x;b c.pdf', 'a&x;b c.pdf', 'a&#38;x&#x3B;b&#32;c.pdf']));
  const r = validateTicket(text, OPTIONS);
  assertSame(r, text);
  const urls = urlsOf(r);
  assert.equal(new Set(urls.map((x) => x.value)).size, 1);
  assert.equal(urls.map((x) => x.findings.map((f) => `${f.code}@${f.column}`)), [
    ['unescaped-semicolon@40', 'unescaped-space@42'],
    ['unescaped-semicolon@41', 'unescaped-space@43'],
    ['undefined-entity@34', 'unescaped-space@38'],
    ['unescaped-semicolon@40', 'unescaped-space@47'],
  ]);
});

test('nothing is carried from one ticket to the next: JDF versions and charsets', () => {
  const raw = 'Broschüre 1.pdf';
  const tickets: Array<[string, string | Uint8Array]> = [
    ['JDF 1.2', jdf(runList('file:///c:/Jobs/', [raw, raw]), '1.2')],
    ['JDF 1.4', jdf(runList('file:///c:/Jobs/', [raw, raw]), '1.4')],
    ['UTF-8', new TextEncoder().encode(jdf(runList('file:///c:/Jobs/', ['Brosch%FCre.pdf', 'Brosch%C3%BCre.pdf', 'Brosch%FCre.pdf'])))],
    ['ISO-8859-1', Buffer.from(jdf(runList('file:///c:/Jobs/', ['Brosch%FCre.pdf', 'Brosch%C3%BCre.pdf', 'Brosch%FCre.pdf']), '1.4', 'ISO-8859-1'), 'latin1')],
    ['JDF 1.2 again', jdf(runList('file:///c:/Jobs/', [raw, raw]), '1.2')],
  ];
  const seen = new Map<string, string>();
  for (const [label, input] of tickets) {
    const r = validateTicket(input, OPTIONS);
    assertSame(r, input, OPTIONS, label);
    seen.set(label, urlsOf(r).map((x) => x.findings.map((f) => `${f.code} ${f.severity}`).join()).join(' | '));
  }
  assert.is.not(seen.get('JDF 1.2'), seen.get('JDF 1.4'));
  assert.is(seen.get('JDF 1.2'), seen.get('JDF 1.2 again'));
  assert.is.not(seen.get('UTF-8'), seen.get('ISO-8859-1'));
  // The options of a run are part of every context: another profile or platform is another answer.
  const text = jdf(runList('file:///c:/Jobs/', ['CON.pdf', 'a:b.pdf', 'CON.pdf']));
  for (const options of [{ ...OPTIONS, platform: 'windows' as const }, { ...OPTIONS, profile: 'rfc8089' as const }, OPTIONS, { ...OPTIONS, jdfVersion: '1.2' }]) {
    assertSame(validateTicket(text, options), text, options, JSON.stringify(options));
  }
});

test('a table smaller than the ticket, or one that stops noting, changes nothing', () => {
  const values = ['a b.pdf', 'C:\\x.pdf', 'ok.pdf', '../up.pdf', 'a b.pdf', 'x%zz.pdf', 'ok.pdf', 'C:\\x.pdf', 'a b.pdf'];
  const text = jdf(runList('file:///c:/Jobs', [...values, ...values.map((v) => `n${v}`), ...values]));
  for (const size of [1, 2, 3, 100]) {
    for (const probe of [1, 3, 2048]) assertSame(withRemembered(size, () => validateTicket(text, OPTIONS), probe), text, OPTIONS, `table of ${size}, probe ${probe}`);
  }
});

const VALUES = ['a.pdf', 'a b.pdf', 'C:\\Jobs\\a.pdf', '\\\\srv\\share\\a b.pdf', '../a.pdf', '/abs/a.pdf', 'file:///c:/a.pdf', 'http://h/a.pdf', 'cid:p1', 'pt://h/x', 'Broschüre.pdf', 'a%20b.pdf', 'a%zz.pdf', 'a&amp;b.pdf', 'a&x;b.pdf', ' a.pdf ', ''];
const DIRECTORIES = ['file:///c:/Jobs/', 'file:///c:/Jobs', 'file://srv/share/', 'relative/dir/', 'http://h/d/'];
test('random tickets of repeated values, Directories, containers and rRefs: the same report as the oracle', () => {
  const place = fc.record({ value: fc.constantFrom(...VALUES), attribute: fc.constantFrom('URL', 'CommentURL'), container: fc.boolean() });
  fc.assert(
    fc.property(
      fc.array(fc.record({ directory: fc.option(fc.constantFrom(...DIRECTORIES)), places: fc.array(place, { maxLength: 6 }), byRef: fc.boolean() }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('1.2', '1.4'),
      fc.constantFrom(0, 1, 2, 4096),
      fc.constantFrom(1, 2, 2048),
      (lists, version, size, probe) => {
        const pool: string[] = [];
        const body = lists.map(({ directory, places, byRef }, k) => {
          const specs = places.map(({ value, attribute, container }, j) => {
            const inner = container ? '<Container><FileSpec URL="pack.zip"/></Container>' : '';
            const spec = attribute === 'URL' ? `<FileSpec URL="${value}">${inner}</FileSpec>` : `<FileSpec URL="x.pdf" CommentURL="${value}">${inner}</FileSpec>`;
            if (!byRef) return `<LayoutElement>${spec}</LayoutElement>`;
            pool.push(`<LayoutElement ID="L${k}_${j}">${spec}</LayoutElement>`);
            return `<LayoutElementRef rRef="L${k}_${j}"/><LayoutElementRef rRef="L${k}_${j}"/>`;
          });
          return `<RunList${directory === null ? '' : ` Directory="${directory}"`}>${specs.join('')}</RunList>`;
        });
        const text = jdf([...pool, ...body].join('\n'), version);
        const r = withRemembered(size, () => validateTicket(text, OPTIONS), probe);
        assert.is(JSON.stringify(r), JSON.stringify(fresh(text)));
      },
    ),
    { numRuns: Number(process.env.FC_RUNS ?? 300), seed: Number(process.env.FC_SEED ?? 13) },
  );
});

test('placed: a finding at a place is the finding and its place, in the same order (every URL rule\'s flagged examples)', () => {
  let count = 0;
  for (const rule of rules) {
    for (const example of rule.meta.examples.flagged) {
      for (const f of checkUrl(example.value, example.options ?? {}).findings) {
        const at = { line: 3, column: 14 };
        // The finding as JSON (a spread copy carries no message since issue 33: the message is made when read), then its place.
        assert.is(JSON.stringify(placed(f, at)), JSON.stringify({ ...(JSON.parse(JSON.stringify(f)) as object), ...at }), `${rule.meta.code}: ${example.value}`);
        count++;
      }
    }
  }
  assert.ok(count > 50, String(count));
});

test.run();
