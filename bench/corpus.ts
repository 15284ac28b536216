// Deterministic inputs for the benchmark: realistic (reference, base) pairs and generated tickets.

/** A small seeded PRNG (mulberry32), so every run and every contender sees the same inputs. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASES = [
  'file:///c:/pub/jdf-folder/',
  'file:///C:/Jobs/4711/Title-J626103/',
  'file://fileserver/Jobs/4711/',
  'file://192.168.10.20/prepress/hot/',
  'file:///srv/hot-folder/',
  'file:///Volumes/HD1/Jobs/4711/',
  'file://localhost/d:/DownloadDir/',
  'file:///pub/hot-folder/ticket.jdf',
];

const NAMES = ['job001.pdf', 'cover.pdf', 'body.pdf', 'page%201.pdf', 'Logo%20final.eps', 'M%C3%BCller.pdf', 'a.pdf', 'insert-A4.pdf', 'proof_v2.pdf', 'scan(1).tif'];
const FOLDERS = ['pages', 'F-22', 'art', 'fonts', 'Title-J626103', 'my%20docs', 'sub', '2026-11'];

export interface Pair {
  ref: string;
  base: string;
}

export function resolveCorpus(size = 10_000, seed = 4711): Pair[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const pairs: Pair[] = [];
  for (let i = 0; i < size; i++) {
    const base = pick(BASES);
    const name = pick(NAMES);
    const folder = pick(FOLDERS);
    const k = rnd();
    let ref: string;
    if (k < 0.3) ref = name; // plain names
    else if (k < 0.5) ref = `${folder}/${name}`; // folders
    else if (k < 0.6) ref = `./${folder}/${name}`;
    else if (k < 0.72) ref = `../${folder}/${name}`; // up one
    else if (k < 0.78) ref = `../../${name}`;
    else if (k < 0.86) ref = `file:///c:/${folder}/${name}`; // absolute file URLs with drive letters
    else if (k < 0.91) ref = `file://fileserver/share/${folder}/${name}`; // UNC hosts
    else if (k < 0.95) ref = `/${folder}/${name}`; // absolute paths
    else if (k < 0.98) ref = `//server2/share/${name}`; // network paths
    else ref = `${folder}/./x/../${name}`;
    pairs.push({ ref, base });
  }
  return pairs;
}

/** A ticket of `count` FileSpecs in partitioned RunLists (one partition per page, as variable-data jobs do). */
export function ticket(count: number, seed = 1): string {
  const rnd = random(seed);
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" JobID="4711" Version="1.4" Status="Waiting">\n',
    ' <ResourcePool>\n',
    '  <RunList ID="RL1" Class="Parameter" Status="Available" PartIDKeys="Run" Directory="file:///c:/Jobs/4711/">\n',
  ];
  for (let i = 0; i < count; i++) {
    const name = rnd() < 0.05 ? `pages/p ${i}.pdf` : `pages/p${String(i).padStart(7, '0')}.pdf`;
    parts.push(`   <RunList Run="${i}" Pages="0"><LayoutElement ElementType="Page"><FileSpec MimeType="application/pdf" URL="${name}"/></LayoutElement></RunList>\n`);
  }
  parts.push('  </RunList>\n </ResourcePool>\n</JDF>\n');
  return parts.join('');
}

/** A small ticket like the ones a hot folder receives: a few FileSpecs, a Directory, now and then a mistake. */
export function smallTicket(i: number): string {
  const rnd = random(i + 1);
  const n = 1 + Math.floor(rnd() * 6);
  let body = '';
  for (let k = 0; k < n; k++) body += `<LayoutElement><FileSpec URL="${rnd() < 0.1 ? 'art/logo final.eps' : `pages/${i}-${k}.pdf`}"/></LayoutElement>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="j${i}" Type="Product" Version="1.4">\n<ResourcePool>\n<RunList ID="RL" Class="Parameter" Status="Available"${rnd() < 0.7 ? ` Directory="file:///srv/jobs/${i}/"` : ''}>\n${body}</RunList>\n</ResourcePool>\n</JDF>\n`;
}
