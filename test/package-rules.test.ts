// Every package rule flags the MIME packages its catalog entry says it flags and stays silent on the clean ones
// (zip rules are described in words there; test/package-zip.test.ts builds those zips).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ruleCatalog } from '../src/index.js';
import { validatePackage } from '../src/package/validate.js';

const codesOf = async (text: string) => {
  const r = await validatePackage(new TextEncoder().encode(text), { documentUri: 'file:///srv/hot/job.mjm' });
  return r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code);
};

for (const meta of ruleCatalog.filter((m) => m.scope === 'package')) {
  const mime = (v: string) => v.startsWith('MIME-Version:');
  test(`${meta.code}: flags its examples, not its clean ones`, async () => {
    assert.ok(meta.examples.flagged.length > 0 && meta.examples.clean.length > 0, 'every rule shows what it flags and what it does not');
    for (const ex of meta.examples.flagged.filter((e) => mime(e.value))) {
      const found = await codesOf(ex.value);
      assert.ok(found.includes(meta.code), `should give ${meta.code}, got ${found}`);
    }
    for (const ex of meta.examples.clean.filter((e) => mime(e.value))) {
      const found = await codesOf(ex.value);
      assert.not.ok(found.includes(meta.code), `must not give ${meta.code}, got ${found}`);
    }
  });
}

test('the clean example package has no finding at all', async () => {
  const clean = ruleCatalog.find((m) => m.code === 'cid-no-part')!.examples.clean[0]!.value;
  assert.equal(await codesOf(clean), []);
});

test.run();
