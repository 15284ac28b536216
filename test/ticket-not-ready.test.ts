// Issue 28, section 2: an empty URL on a resource the ticket itself declares not ready (Status Unavailable or
// Incomplete, JDF 1.x; XJDF 2.x Resource/@Status) is info naming the status; elsewhere it stays an error.
// Hand-written tickets; the verdicts follow the JDF Status values and partition inheritance (a partition without
// its own Status has its parent's).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

/** Each reference's value (or element, for an empty one) with its findings as "severity code status". */
function verdicts(text: string): string[] {
  return validateTicket(text, { documentUri: 'file:///jobs/t.jdf' }).references.map((r) =>
    `${r.element}: ${r.findings.map((f) => `${f.severity} ${f.code}${f.args?.status ? ` ${f.args.status}` : ''}`).join(', ')}`);
}

test('JDF Preview: Unavailable and Incomplete make an empty URL info, Available keeps it an error', () => {
  const text = '<JDF Version="1.4"><ResourcePool>'
    + '<Preview ID="p1" Class="Parameter" Status="Unavailable" URL=""/>'
    + '<Preview ID="p2" Class="Parameter" Status="Incomplete" URL=""/>'
    + '<Preview ID="p3" Class="Parameter" Status="Available" URL=""/>'
    + '<Preview ID="p4" Class="Parameter" URL=""/>'
    + '</ResourcePool></JDF>';
  assert.equal(verdicts(text), [
    "/JDF/ResourcePool/Preview[@ID='p1']: info empty-url Unavailable",
    "/JDF/ResourcePool/Preview[@ID='p2']: info empty-url Incomplete",
    "/JDF/ResourcePool/Preview[@ID='p3']: error empty-url",
    "/JDF/ResourcePool/Preview[@ID='p4']: error empty-url",
  ]);
});

test('partitions inherit the Status above them unless they declare their own', () => {
  const text = '<JDF Version="1.4"><ResourcePool><Preview ID="p" Class="Parameter" PartIDKeys="Separation" Status="Unavailable">'
    + '<Preview Separation="Cyan" Status="Available" URL=""/><Preview Separation="Black" URL=""/>'
    + '</Preview></ResourcePool></JDF>';
  assert.equal(verdicts(text), [
    "/JDF/ResourcePool/Preview[@ID='p']/Preview: error empty-url",
    "/JDF/ResourcePool/Preview[@ID='p']/Preview: info empty-url Unavailable",
  ]);
});

test('a FileSpec inside a resource not ready: info; other findings on that resource stay what they are', () => {
  const text = '<JDF Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter" Status="Unavailable" Directory="file:///c:/jobs/">'
    + '<LayoutElement><FileSpec URL=""/></LayoutElement><LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';
  assert.equal(verdicts(text).slice(1), [
    "/JDF/ResourcePool/RunList[@ID='r']/LayoutElement/FileSpec: info empty-url Unavailable",
    "/JDF/ResourcePool/RunList[@ID='r']/LayoutElement/FileSpec: error unescaped-space",
  ]);
});

test('the search stops at the resource: a node\'s Status, or one above another resource, is not the resource\'s', () => {
  const text = '<JDF Version="1.4" Status="Waiting"><ResourcePool><RunList ID="r" Class="Parameter" Status="Unavailable">'
    + '<FileSpec ID="f" Class="Parameter" URL=""/></RunList><FileSpec ID="g" Class="Parameter" URL=""/></ResourcePool></JDF>';
  assert.equal(verdicts(text), [
    "/JDF/ResourcePool/RunList[@ID='r']/FileSpec[@ID='f']: error empty-url",
    "/JDF/ResourcePool/FileSpec[@ID='g']: error empty-url",
  ]);
});

test('XJDF: Resource/@Status Unavailable makes an empty URL info; a Product, which has no Status, keeps it an error', () => {
  const text = '<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0"><ProductList><Product CommentURL=""/></ProductList>'
    + '<ResourceSet Name="Preview" Usage="Input"><Resource Status="Unavailable"><Preview><FileSpec URL=""/></Preview></Resource></ResourceSet></XJDF>';
  const found = verdicts(text);
  assert.equal(found.map((f) => f.slice(f.indexOf(': ') + 2)), ['error empty-url', 'info empty-url Unavailable']);
});

test.run();
