// Tickets of one shape each, for the memory section: what the references look like changes how much a report
// holds (a finding, a fix, an rRef's second path), so every shape a hot folder sees is measured on its own.
// Built here, deterministically, from the forms found in public tickets; nothing is read from disk.
import { random } from './corpus.js';

export const SHAPES = ['plain', 'escaped', 'mix', 'broken', 'no-slash', 'nested', 'rref'] as const;
export type Shape = (typeof SHAPES)[number];

export const SHAPE_DESCRIPTIONS: Record<Shape, string> = {
  plain: 'clean relative names under a Directory',
  escaped: 'percent-encoded names (%20, UTF-8 %C3%BC, %23)',
  mix: 'the URL forms of real tickets: UNC hosts, http, drive letters, file:/, cid:, raw non-ASCII, a few raw spaces',
  broken: 'raw spaces and backslashes (Windows paths, \\\\server\\share)',
  'no-slash': 'relative names under a Directory without its trailing /',
  nested: 'partitions nested three deep (Run, Separation, PartVersion)',
  rref: 'FileSpec resources reached through FileSpecRef/@rRef',
};

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n'
  + '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" JobID="4711" Version="1.4" Status="Waiting">\n'
  + ' <ResourcePool>\n';
const TAIL = ' </ResourcePool>\n</JDF>\n';
const pad = (i: number) => String(i).padStart(7, '0');
const page = (url: string) => `<LayoutElement ElementType="Page"><FileSpec MimeType="application/pdf" URL="${url}"/></LayoutElement>`;

/** One partitioned RunList with one FileSpec per Run partition, the URL made by `url`. */
function partitioned(count: number, directory: string, url: (i: number) => string): string {
  const parts = [HEAD, `  <RunList ID="RL1" Class="Parameter" Status="Available" PartIDKeys="Run" Directory="${directory}">\n`];
  for (let i = 0; i < count; i++) parts.push(`   <RunList Run="${i}" Pages="0">${page(url(i))}</RunList>\n`);
  parts.push('  </RunList>\n', TAIL);
  return parts.join('');
}

/** A reference as real tickets write them, one form picked per FileSpec. */
function mixed(rnd: () => number, i: number): string {
  const k = rnd();
  if (k < 0.3) return `pages/p${pad(i)}.pdf`;
  if (k < 0.55) return `file://kie-wf16prdy/PTJobs/Jobs/2026-11-23/Job${i % 97}/Content/p${pad(i)}.pdf`;
  if (k < 0.65) return `http://10.1.0.150:8080/prodflow/content/p${pad(i)}.pdf`;
  if (k < 0.73) return `file:///C:/Jobs/4711/p${pad(i)}.pdf`;
  if (k < 0.78) return `file:/C:/Jobs/4711/p${pad(i)}.pdf`;
  if (k < 0.83) return `../Shared/Fonts/f${pad(i)}.otf`;
  if (k < 0.88) return `Brosch%C3%BCre%20${pad(i)}.pdf`;
  if (k < 0.92) return `Broschüre(88-0026)/p${pad(i)}.pdf`;
  if (k < 0.95) return `cid:part${i}@example.com`;
  if (k < 0.98) return `p ${pad(i)}.pdf`;
  return `file://localhost/d:/DownloadDir/p${pad(i)}.pdf`;
}

function broken(i: number): string {
  switch (i % 4) {
    case 0: return `pages\\p ${pad(i)}.pdf`;
    case 1: return `C:\\Jobs\\4711\\p${pad(i)}.pdf`;
    case 2: return `\\\\server\\share\\p ${pad(i)}.pdf`;
    default: return `p ${pad(i)}.pdf`;
  }
}

function escaped(i: number): string {
  switch (i % 3) {
    case 0: return `pages/M%C3%BCller%20Seite%20${pad(i)}.pdf`;
    case 1: return `Logo%20final%20${pad(i)}.eps`;
    default: return `my%20docs/p%23${pad(i)}.pdf`;
  }
}

/** Partitions three deep: Run, then four Separations, then two PartVersions, a FileSpec in each leaf. */
function nested(count: number): string {
  const parts = [HEAD, '  <RunList ID="RL1" Class="Parameter" Status="Available" PartIDKeys="Run Separation PartVersion" Directory="file:///srv/hot/4711/">\n'];
  const seps = ['Cyan', 'Magenta', 'Yellow', 'Black'];
  for (let i = 0, run = 0; i < count; run++) {
    parts.push(`   <RunList Run="${run}">\n`);
    for (const sep of seps) {
      if (i >= count) break;
      parts.push(`    <RunList Separation="${sep}">`);
      for (const version of ['De', 'En']) if (i < count) parts.push(`<RunList PartVersion="${version}">${page(`${sep}/${version}/p${pad(i++)}.pdf`)}</RunList>`);
      parts.push('</RunList>\n');
    }
    parts.push('   </RunList>\n');
  }
  parts.push('  </RunList>\n', TAIL);
  return parts.join('');
}

/** FileSpec resources in the pool, each used once through a FileSpecRef in a partition under a Directory. */
function rref(count: number): string {
  const parts = [HEAD];
  for (let i = 0; i < count; i++) parts.push(`  <FileSpec ID="FS${i}" Class="Parameter" Status="Available" MimeType="application/pdf" URL="pages/p${pad(i)}.pdf"/>\n`);
  parts.push('  <RunList ID="RL1" Class="Parameter" Status="Available" PartIDKeys="Run" Directory="file:///c:/Jobs/4711/">\n');
  for (let i = 0; i < count; i++) parts.push(`   <RunList Run="${i}" Pages="0"><LayoutElement ElementType="Page"><FileSpecRef rRef="FS${i}"/></LayoutElement></RunList>\n`);
  parts.push('  </RunList>\n', TAIL);
  return parts.join('');
}

/** A ticket of `count` FileSpecs of one shape. */
export function shapedTicket(shape: Shape, count: number, seed = 7): string {
  switch (shape) {
    case 'plain': return partitioned(count, 'file:///c:/Jobs/4711/', (i) => `pages/p${pad(i)}.pdf`);
    case 'escaped': return partitioned(count, 'file:///c:/Jobs/4711/', escaped);
    case 'mix': {
      const rnd = random(seed);
      return partitioned(count, 'file://HEIPC83231/PTJobs/Jobs/2026-11-23/Brosch%C3%BCre(88-0026)/', (i) => mixed(rnd, i));
    }
    case 'broken': return partitioned(count, 'file:///c:/Jobs/4711/', broken);
    case 'no-slash': return partitioned(count, 'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables', (i) => `p${pad(i)}.pdf`);
    case 'nested': return nested(count);
    case 'rref': return rref(count);
  }
}
