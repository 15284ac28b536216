// File rules' documented examples that need nothing on disk: the URL alone decides, checked with --check-exists
// against an empty folder on this (POSIX) machine. A false example here fails, as not-a-local-path's once was.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ruleCatalog, validateTicket } from '../src/index.js';
import { checkLocalFiles } from '../src/node/local-files.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const folder = tempFolder('jdf-rules-files-');
const documentUri = pathToFileURL(path.join(folder, 'ticket.jdf')).href;

/** The URL of a prose example: what stands before " (". */
const urlOf = (example: string) => example.split(' (')[0]!;

async function codesOf(url: string): Promise<string[]> {
  const report = validateTicket(`<JDF Version="1.4"><ResourcePool><FileSpec URL="${url}"/></ResourcePool></JDF>`, { documentUri, platform: 'unix' });
  await checkLocalFiles(report, { checkExists: true, maps: [], documentUri });
  return report.references.flatMap((r) => r.findings.map((f) => f.code));
}

// Which examples need nothing on disk: the flagged ones of these rules, and the clean ones where named.
const RUNNABLE: Record<string, { flagged: boolean; clean: boolean }> = {
  'not-a-local-path': { flagged: true, clean: true },
  'not-checked': { flagged: true, clean: true },
  'remote-not-checked': { flagged: true, clean: false },
  'file-missing': { flagged: true, clean: false },
};

if (process.platform !== 'win32') {
  for (const [code, which] of Object.entries(RUNNABLE)) {
    const meta = ruleCatalog.find((m) => m.code === code)!;
    if (which.flagged) {
      for (const ex of meta.examples.flagged) {
        test(`${code}: flags its example ${ex.value}`, async () => {
          const found = await codesOf(urlOf(ex.value));
          assert.ok(found.includes(code), `${urlOf(ex.value)} should give ${code}, got ${found}`);
        });
      }
    }
    if (which.clean) {
      for (const ex of meta.examples.clean) {
        test(`${code}: does not flag its example ${ex.value}`, async () => {
          const found = await codesOf(urlOf(ex.value));
          assert.not.ok(found.includes(code), `${urlOf(ex.value)} must not give ${code}, got ${found}`);
        });
      }
    }
  }
}

test('the old false example: on POSIX a drive letter is a folder name, so file:///c:/jobs/a.pdf is file-missing, not not-a-local-path', async () => {
  if (process.platform === 'win32') return;
  const found = await codesOf('file:///c:/jobs/a.pdf');
  assert.ok(found.includes('file-missing'), `${found}`);
  assert.not.ok(found.includes('not-a-local-path'), `${found}`);
});

test.after(removeTempFolders);
test.run();
