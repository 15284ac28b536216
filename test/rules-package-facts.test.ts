// The package rules' decisions over what the readers read (src/rules/package-read.ts), and the Node side's
// (files.ts, internal.ts), without a package or a file system: expected values from RFC 2046 5.1.1's boundary
// grammar (transcribed here on its own), RFC 2387 3.2, RFC 2045 5 and 6.1, and Node's worker error codes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { containerMemberProblem, jobFolderProblem } from '../src/rules/files.js';
import { workerFailure } from '../src/rules/internal.js';
import { boundaryProblem, boundaryProblems, contentTypeProblem, limitProblem, mimeEndProblem, startProblem, transferEncodingProblem, zipDamageProblem } from '../src/rules/package-read.js';

// RFC 2046 5.1.1: boundary := 0*69<bchars> bcharsnospace; bchars := bcharsnospace / " ";
// bcharsnospace := DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"
const NOSPACE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=?";
const grammar = (b: string) => b.length >= 1 && b.length <= 70 && [...b].every((c) => NOSPACE.includes(c) || c === ' ') && NOSPACE.includes(b[b.length - 1]!);

test('boundaryProblem: no problem exactly when RFC 2046 5.1.1\'s grammar takes the boundary', () => {
  const tried = ['', 'B', 'a b', 'a ', ' a', 'x'.repeat(70), 'x'.repeat(71), 'simple boundary', '----=_Part_0_12345.67890'];
  for (let c = 0x20; c < 0x7f; c++) tried.push(`a${String.fromCharCode(c)}b`, String.fromCharCode(c));
  for (const b of tried) assert.is(boundaryProblem(b) === null, grammar(b), JSON.stringify(b));
});

test('boundaryProblems: a multipart Content-Type with a boundary parameter is needed (RFC 2046 5.1.1)', () => {
  assert.equal(boundaryProblems({ type: 'multipart/related', boundary: 'B' }), []);
  assert.equal(boundaryProblems({ type: null, boundary: undefined }).map((p) => p.code), ['mime-boundary-missing']);
  assert.equal(boundaryProblems({ type: 'text/plain', boundary: undefined }).map((p) => p.code), ['mime-boundary-missing']);
  assert.equal(boundaryProblems({ type: 'multipart/related', boundary: undefined }).map((p) => p.code), ['mime-boundary-missing']);
  assert.equal(boundaryProblems({ type: 'multipart/related', boundary: 'a ' }), [{ code: 'mime-boundary-invalid', args: { boundary: 'a ', problem: 'it ends with a space' } }]);
});

test('mimeEndProblem: a package ends after its close delimiter (RFC 2046 5.1.1)', () => {
  assert.is(mimeEndProblem({ state: 'epilogue', boundary: 'B' }), null);
  assert.equal(mimeEndProblem({ state: 'body', boundary: 'B' }), { code: 'mime-unclosed', args: { boundary: 'B' } });
  assert.equal(mimeEndProblem({ state: 'headers', boundary: 'B' })?.code, 'mime-unclosed');
  assert.equal(mimeEndProblem({ state: 'preamble', boundary: 'B' })?.code, 'mime-boundary-missing');
  assert.is(mimeEndProblem({ state: 'preamble', boundary: undefined }), null, 'the missing boundary was said when the header was read');
});

test('startProblem (RFC 2387 3.2), transferEncodingProblem (RFC 2045 6.1), contentTypeProblem (RFC 2045 5)', () => {
  assert.equal(startProblem(undefined, false, 2), { code: 'mime-start-missing', args: {} });
  assert.is(startProblem('<jdf@example.com>', true, 2), null);
  assert.equal(startProblem('<x@example.com>', false, 2), { code: 'mime-start-wrong', args: { start: '<x@example.com>' } });
  assert.is(startProblem('<x@example.com>', false, 0), null, 'no parts: nothing for start to name');
  assert.is(transferEncodingProblem('base64', true), null);
  assert.equal(transferEncodingProblem('uuencode', false), { code: 'mime-unknown-encoding', args: { encoding: 'uuencode' } });
  const pdf = { kind: 'pdf', as: 'application/pdf' };
  assert.is(contentTypeProblem('p', pdf, pdf), null);
  assert.is(contentTypeProblem('p', undefined, pdf), null, 'nothing declared: nothing to hold the bytes to');
  assert.equal(contentTypeProblem('p', pdf, undefined), { code: 'content-type-mismatch', args: { part: 'p', declared: 'application/pdf', actual: 'nothing we know' } });
});

test('limitProblem names what was not read; zipDamageProblem says where the zip is damaged', () => {
  const total = (others: string[]) => limitProblem({ limit: 'total', name: 'a.jdf', nested: false, others, before: 10, max: 20 }).args.what as string;
  assert.ok(total([]).startsWith('the ticket part a.jdf, since'));
  assert.ok(total(['b', 'c', 'd', 'e']).startsWith('the ticket part a.jdf (and 4 more after it: b, c, d, ...), since'));
  assert.ok(total(['b', 'c', 'd']).startsWith('the ticket part a.jdf (and 3 more after it: b, c, d), since'));
  assert.equal(limitProblem({ limit: 'parts', max: 3 }), { code: 'package-limit', args: { what: 'the package has more than 3 parts' } });
  assert.equal(zipDamageProblem({ damage: 'entry', entry: 2, count: 5 }), { code: 'zip-malformed', args: { detail: 'central directory entry 2 of 5 is damaged' } });
});

test('the Node side\'s: a worker out of heap, a zip container\'s member, a job folder\'s tickets', () => {
  // Node's worker_threads: a worker past resourceLimits fails with ERR_WORKER_OUT_OF_MEMORY.
  assert.equal(workerFailure('ERR_WORKER_OUT_OF_MEMORY', 100, 16), { code: 'out-of-memory', args: { size: 100, limit: 16 } });
  assert.is(workerFailure('ERR_WORKER_INIT_FAILED', 100, 16), null);
  assert.is(containerMemberProblem('a.pdf', '/j/job.zip', true), null);
  assert.equal(containerMemberProblem('a.pdf', '/j/job.zip', false), { code: 'file-missing', args: { path: "'a.pdf' inside /j/job.zip" } });
  const names = Array.from({ length: 12 }, (_, k) => `t${k}.jdf`);
  assert.equal(jobFolderProblem('job', names).args, { folder: 'job', count: 12, names: 't0.jdf, t1.jdf, t2.jdf, t3.jdf, t4.jdf, t5.jdf, t6.jdf, t7.jdf, t8.jdf, t9.jdf, and 2 more' });
});

test.run();
