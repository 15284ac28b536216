// The walk comes back to a resource at each rRef that names it (src/ticket/walk.ts): each use reports its URLs,
// and a Directory is reported once. What the walk reads is kept, and Directories counted, only where it may come
// back: in a resource named by more than one rRef on the way there, or in one that only cycles name (walked where
// it stands, then perhaps reached again). These pin what each shape reports (as before that distinction).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

const A = '<RunList ID="A" Directory="file:///a/"><LayoutElement><FileSpec URL="x.pdf"/></LayoutElement></RunList>';
const ticket = (pool: string) => `<JDF><ResourcePool>${pool}</ResourcePool></JDF>`;

const CASES: Array<[string, string, string[], string]> = [
  ['named once', ticket(`${A}<RunList><RunListRef rRef="A"/></RunList>`), [
    'Directory=file:///a/@1:47 via /JDF/ResourcePool/RunList/RunListRef',
    'URL=x.pdf@1:89 via /JDF/ResourcePool/RunList/RunListRef',
  ], ''],
  ['named twice', ticket(`${A}<RunList><RunListRef rRef="A"/><RunListRef rRef="A"/></RunList>`), [
    'Directory=file:///a/@1:47 via /JDF/ResourcePool/RunList/RunListRef',
    'URL=x.pdf@1:89 via /JDF/ResourcePool/RunList/RunListRef',
    'URL=x.pdf@1:89 via /JDF/ResourcePool/RunList/RunListRef',
  ], ''],
  ['named once, walked where it stands, then reached from a resource only a cycle names', ticket(`${A}<RunList ID="S"><RunListRef rRef="S"/><RunListRef rRef="A"/></RunList>`), [
    'Directory=file:///a/@1:47',
    'URL=x.pdf@1:89',
    "URL=x.pdf@1:89 via /JDF/ResourcePool/RunList[@ID='S']/RunListRef",
  ], 'rref-cycle'],
  ['two resources that name each other', ticket('<RunList ID="A" Directory="file:///a/"><RunListRef rRef="B"/><LayoutElement><FileSpec URL="x.pdf"/></LayoutElement></RunList><RunList ID="B" Directory="file:///b/"><RunListRef rRef="A"/><LayoutElement><FileSpec URL="y.pdf"/></LayoutElement></RunList>'), [
    'Directory=file:///a/@1:47',
    "Directory=file:///b/@1:172 via /JDF/ResourcePool/RunList[@ID='A']/RunListRef",
    "URL=y.pdf@1:236 via /JDF/ResourcePool/RunList[@ID='A']/RunListRef",
    'URL=x.pdf@1:111',
  ], 'rref-cycle'],
  ['named once inside a resource named twice', ticket('<LayoutElement ID="L"><FileSpec URL="x.pdf"/></LayoutElement><RunList ID="A" Directory="file:///a/"><LayoutElementRef rRef="L"/></RunList><RunList><RunListRef rRef="A"/><RunListRef rRef="A"/></RunList>'), [
    'Directory=file:///a/@1:108 via /JDF/ResourcePool/RunList/RunListRef',
    'URL=x.pdf@1:57 via /JDF/ResourcePool/RunList/RunListRef',
    'URL=x.pdf@1:57 via /JDF/ResourcePool/RunList/RunListRef',
  ], ''],
];

for (const [name, text, references, findings] of CASES) {
  test(`rRefs, ${name}: each use reports its URLs, the Directory once`, () => {
    const r = validateTicket(text, { documentUri: 'file:///srv/t.jdf' });
    assert.equal(r.references.map((x) => `${x.attribute}=${x.value}@${x.line}:${x.column}${x.via ? ` via ${x.via}` : ''}`), references);
    assert.is(r.findings.map((f) => f.code).join(), findings);
  });
}

test.run();
