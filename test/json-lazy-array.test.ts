// An array made as it is written (LazyArray, SARIF's results) is written as JSON.stringify writes the array of its
// elements: the oracle is JSON.stringify itself, on random values whose arrays are made lazy.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { formatSarif } from '../src/report/sarif.js';
import { ruleCatalog } from '../src/rules/catalog.js';
import { jsonPieces, LazyArray } from '../src/report/json-pieces.js';

const RUNS = Number(process.env.FC_RUNS ?? 2000);
const join = (pieces: Iterable<string>) => [...pieces].join('');

/** The value with every array (at any depth) a LazyArray of the same elements, made lazy too. */
const lazy = (v: unknown): unknown => {
  if (Array.isArray(v)) return new LazyArray(function* () {
    for (const e of v) yield lazy(e);
  });
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, lazy(e)]));
  return v;
};

test('a LazyArray is written as JSON.stringify writes its elements, at any depth (undefined, empty and nested containers)', () => {
  const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), fc.constant([]), fc.constant({}));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 70 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 5 })),
  })).node;
  fc.assert(fc.property(value, fc.nat({ max: 64 }), (v, limit) => {
    fc.pre(v !== undefined);
    assert.is(join(jsonPieces(lazy(v), '', limit)), JSON.stringify(v, null, 2));
  }), { numRuns: RUNS });
});

test('SARIF, its results made one at a time, is the document JSON.stringify writes of them all', () => {
  const report = { tool: { name: 'jdf-filespec' as const, version: '0' }, files: [{ path: 't.jdf', ...validateTicket('<JDF><ResourcePool><FileSpec URL="a b.pdf"/><FileSpec URL="c|d e.pdf"/></ResourcePool></JDF>', { documentUri: 'file:///srv/hot/t.jdf' }) }], summary: { files: 1, references: 2, error: 0, warning: 0, info: 0, suppressed: 0 } };
  const sarif = formatSarif(report, ruleCatalog);
  const parsed = JSON.parse(sarif);
  const findings = report.files[0]!.references.flatMap((r) => r.findings);
  assert.ok(findings.length >= 2);
  assert.equal(parsed.runs[0].results.map((r: any) => r.ruleId), findings.map((f) => f.code));
  assert.is(sarif, JSON.stringify(parsed, null, 2) + '\n');
});

test.run();
