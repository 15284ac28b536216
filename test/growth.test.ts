// Inputs whose cost once grew as the square of their size (issue 33, part 4): a Part choosing among n partitions
// from n places, a chain of n rRefs, n duplicate attributes in one start tag. Nothing here is timed: the work is
// counted (the element tree's look-ups, and the array elements copied by spreads and scanned by `includes`, the
// two ways the old code went quadratic), and doubling the input must roughly double it, where a quadratic
// cost quadruples it. Each input's report is checked too, against what the JDF spec says it must hold.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket, type TicketReport } from '../src/index.js';
import { ElementTree } from '../src/ticket/xml/elements.js';

const HOT = 'file:///c:/hot/ticket.jdf';
const jdf = (body: string, links = '') => `<JDF ID="j" Type="Product" Version="1.4"><ResourcePool>${body}</ResourcePool><ResourceLinkPool>${links}</ResourceLinkPool></JDF>`;

/** The work `run` does, counted as described at the top; the patches are removed before it returns. */
function countWork(run: () => void): number {
  let work = 0;
  const tree = ElementTree.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const patched: Array<[object, PropertyKey, unknown]> = [];
  const patch = (owner: object, key: PropertyKey, wrap: (original: (...args: unknown[]) => unknown) => unknown) => {
    const original = (owner as Record<PropertyKey, unknown>)[key] as (...args: unknown[]) => unknown;
    patched.push([owner, key, original]);
    Object.defineProperty(owner, key, { value: wrap(original), configurable: true, writable: true });
  };
  for (const name of ['attribute', 'attributesNamed', 'firstChild', 'nextSibling', 'rawAttributes']) {
    patch(tree, name, (original) => function (this: unknown, ...args: unknown[]) {
      work++;
      return original.apply(this, args);
    });
  }
  patch(Array.prototype, 'includes', (original) => function (this: unknown[], ...args: unknown[]) {
    work += this.length;
    return original.apply(this, args);
  });
  patch(Array.prototype, Symbol.iterator, (original) => function (this: unknown[]) {
    work += this.length;
    return original.call(this);
  });
  try {
    run();
  } finally {
    for (const [owner, key, original] of patched.reverse()) Object.defineProperty(owner, key, { value: original, configurable: true, writable: true });
  }
  return work;
}

/** The ratio of the work at 2n to the work at n; about 2 when the cost is linear, about 4 when it is quadratic. */
function growth(make: (n: number) => string, n: number): number {
  const at = (size: number) => countWork(() => void validateTicket(make(size), { documentUri: HOT }));
  return at(2 * n) / at(n);
}

const codes = (r: TicketReport) => [...r.findings, ...r.references.flatMap((x) => x.findings)].map((f) => f.code);

// JDF 1.x 3.10.5: the Part's PartVersion selects the partition with that PartVersion.
const partitions = (n: number) => {
  let body = '<FileSpec ID="Z" Class="Parameter" PartIDKeys="PartVersion">';
  for (let k = 0; k < n; k++) body += `<FileSpec PartVersion="v${k}" URL="file:///c:/v${k}.zip"/>`;
  body += '</FileSpec>';
  for (let k = 0; k < n; k++) body += `<FileSpec ID="F${k}" Class="Parameter" URL="a${k}.pdf"><Container><FileSpecRef rRef="Z"><Part PartVersion="v${k}"/></FileSpecRef></Container></FileSpec>`;
  return jdf(body);
};

test('a Part choosing among n partitions from n places: linear, each file inside its own partition\'s container', () => {
  const r = validateTicket(partitions(50), { documentUri: HOT });
  const inside = r.references.filter((x) => /^a\d+\.pdf$/.test(x.value));
  assert.is(inside.length, 50);
  for (const x of inside) assert.is(x.resolved, `file:///c:/v${x.value.slice(1, -4)}.zip/${x.value}`);
  const ratio = growth(partitions, 400);
  assert.ok(ratio < 2.6, `doubling n multiplied the work by ${ratio.toFixed(2)}`);
});

// A chain of rRefs, each resource naming the next; the FileSpec at its end is read once, with no cycle.
const chain = (n: number) => {
  let body = '';
  for (let k = 0; k < n; k++) body += `<RunList ID="R${k}" Class="Parameter"><RunListRef rRef="R${k + 1}"/></RunList>`;
  body += `<RunList ID="R${n}" Class="Parameter"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList>`;
  return jdf(body, '<RunListLink rRef="R0" Usage="Input"/>');
};

test('a chain of n rRefs: linear, its file found once and no cycle', () => {
  const r = validateTicket(chain(100), { documentUri: HOT });
  assert.equal(r.references.map((x) => x.resolved), ['file:///c:/hot/a.pdf']);
  assert.equal(codes(r), []);
  const ratio = growth(chain, 2000);
  assert.ok(ratio < 2.6, `doubling n multiplied the work by ${ratio.toFixed(2)}`);
});

test('a chain that leads back to its start is still a cycle, found at the rRef that closes it', () => {
  const body = '<RunList ID="R0" Class="Parameter"><RunListRef rRef="R1"/></RunList><RunList ID="R1" Class="Parameter"><RunListRef rRef="R2"/></RunList><RunList ID="R2" Class="Parameter"><RunListRef rRef="R0"/><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList>';
  const text = jdf(body, '<RunListLink rRef="R0" Usage="Input"/>');
  const r = validateTicket(text, { documentUri: HOT });
  const cycles = r.findings.filter((f) => f.code === 'rref-cycle');
  assert.is(cycles.length, 1);
  // One line: the column is the offset of the rRef's value, plus one.
  assert.equal([cycles[0]!.line, cycles[0]!.column], [1, text.indexOf('<RunListRef rRef="R0"/>') + '<RunListRef rRef="'.length + 1]);
});

// XML 1.0 3.1: an attribute name may appear once in a start tag; each repetition is one problem.
const duplicates = (n: number) => {
  let tag = '<FileSpec';
  for (let k = 0; k < n; k++) tag += ` URL="a${k}.pdf"`;
  return jdf(`<RunList ID="r" Class="Parameter"><LayoutElement>${tag}/></LayoutElement></RunList>`, '<RunListLink rRef="r" Usage="Input"/>');
};

test('n duplicate URL attributes in one start tag: linear, n - 1 duplicate-attribute problems', () => {
  const r = validateTicket(duplicates(200), { documentUri: HOT });
  assert.is(codes(r).filter((c) => c === 'duplicate-attribute').length, 199);
  const ratio = growth(duplicates, 4000);
  assert.ok(ratio < 2.6, `doubling n multiplied the work by ${ratio.toFixed(2)}`);
});

// After validateTicket returns, nothing it remembers (the memos of bases, authorities and hosts) may hold a slice
// of the ticket's text, which keeps the whole text alive: a hot folder would hold its biggest ticket for ever.
// In a process of its own with the collector exposed: a ticket with a Directory and a 32 MB comment is checked,
// dropped and collected after the call's turn has ended; the heap must then hold far less than the text.
test('after validateTicket returns, the ticket\'s text can be collected', () => {
  const script = `
    const { validateTicket } = await import(${JSON.stringify(new URL('../src/index.js', import.meta.url).href)});
    let specs = '';
    for (let k = 0; k < 200; k++) specs += '<FileSpec URL="page' + k + '.pdf"/>';
    let bytes = Buffer.from('<JDF ID="j" Type="Product" Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter" Directory="file:///c:/Jobs/J4711/"><LayoutElement>' + specs + '</LayoutElement></RunList></ResourcePool></JDF><!--' + 'x'.repeat(32e6) + '-->');
    let report = validateTicket(bytes, { documentUri: 'file://localhost/c:/hot/ticket.jdf' });
    const n = report.references.length;
    bytes = undefined; report = undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
    globalThis.gc(); globalThis.gc();
    process.stdout.write(JSON.stringify({ n, heap: process.memoryUsage().heapUsed }));`;
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.is(child.status, 0, child.stderr);
  const { n, heap } = JSON.parse(child.stdout) as { n: number; heap: number };
  assert.is(n, 201);
  assert.ok(heap < 16e6, `${(heap / 1e6).toFixed(1)} MB still on the heap`);
});

test.run();
