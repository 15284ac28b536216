// Random JDF tickets from a seeded generator, for tests that compare two ways of reading the same ticket.

import { random } from '../bench/corpus.js';

/** The bench's seeded generator (mulberry32): the same tickets on every run. */
export { random };

const VALUES = [
  'pages/p1.pdf', 'p 2.pdf', 'pages\\p3.pdf', 'C:\\Jobs\\p4.pdf', '\\\\server\\share\\p5.pdf', 'M%C3%BCller%20p6.pdf',
  'file:///c:/Jobs/p7.pdf', 'file:/C:/Jobs/p8.pdf', 'http://10.1.0.150/p9.pdf', 'cid:part1@example.com', '../Fonts/f.otf',
  'Broschüre/p10.pdf', 'p#11.pdf', '', 'file://localhost/d:/Dir/p12.pdf', 'p&amp;13.pdf', 'file:///srv/p 14.pdf',
];
const DIRECTORIES = ['file:///c:/Jobs/4711/', 'file:///c:/Jobs/4711', 'file://server/PTJobs/Sheet', 'sub/dir', 'C:\\Jobs\\x', 'file:///srv/a b/'];

/** A random JDF: resources used zero, one or several times through rRefs, RunLists with and without Directory, containers, directives. */
export function randomTicket(rnd: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const specs = 1 + Math.floor(rnd() * 5);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" Version="1.4">\n<ResourcePool>\n'];
  for (let i = 0; i < specs; i++) {
    if (rnd() < 0.15) out.push(`<!-- jdf-filespec-disable-next-line ${pick(['unescaped-space', 'backslash-separator', 'windows-path', 'no-such-rule'])} -->\n`);
    const container = rnd() < 0.2 ? `<Container><FileSpec URL="${pick(VALUES)}"/></Container>` : rnd() < 0.1 ? `<Container><FileSpecRef rRef="FS${Math.floor(rnd() * specs)}"/></Container>` : '';
    out.push(`<FileSpec ID="FS${i}" Class="Parameter" Status="${pick(['Available', 'Unavailable'])}" URL="${pick(VALUES)}">${container}</FileSpec>\n`);
  }
  const lists = 1 + Math.floor(rnd() * 3);
  for (let l = 0; l < lists; l++) {
    const dir = rnd() < 0.7 ? ` Directory="${pick(DIRECTORIES)}"` : '';
    out.push(`<RunList ID="RL${l}" Class="Parameter" Status="Available"${dir}>\n`);
    const parts = Math.floor(rnd() * 5);
    for (let p = 0; p < parts; p++) {
      const inner = rnd() < 0.4 ? ` Directory="${pick(DIRECTORIES)}"` : '';
      const body = rnd() < 0.5 ? `<FileSpecRef rRef="FS${Math.floor(rnd() * (specs + 1))}"/>` : `<FileSpec URL="${pick(VALUES)}"/>`;
      out.push(`<RunList Run="${p}"${inner}><LayoutElement>${body}</LayoutElement></RunList>\n`);
    }
    if (rnd() < 0.3) out.push(`<RunListRef rRef="RL${Math.floor(rnd() * lists)}"/>\n`);
    out.push('</RunList>\n');
  }
  if (rnd() < 0.2) out.push('<Preview PreviewType="Separation" URL="' + pick(VALUES) + '" Directory="' + pick(DIRECTORIES) + '"/>\n');
  out.push('</ResourcePool>\n');
  if (rnd() < 0.5) out.push(`<ResourceLinkPool><RunListLink rRef="RL0" Usage="Input"/>${rnd() < 0.5 ? '<RunListLink rRef="RL0" Usage="Input"/>' : ''}</ResourceLinkPool>\n`);
  if (rnd() < 0.1) out.push('<Comment>a forbidden \u0001 character</Comment>\n');
  out.push('</JDF>\n');
  return out.join('');
}
