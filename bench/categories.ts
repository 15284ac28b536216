// URL values by category, for the check and resolve sections: every form a real ticket carries, each category
// measured on its own and in the mix real tickets have (the proportions of bench/shapes.ts' "mix"). Built here,
// deterministically; nothing is read from disk, so the bench needs nothing beside the project.
import { random } from './corpus.js';

export interface Value {
  value: string;
  base: string;
}

const pad = (i: number) => String(i).padStart(6, '0');
const BASE = 'file://HEIPC83231/PTJobs/Jobs/2026-11-23/Brosch%C3%BCre(88-0026)/';
const LOCAL_BASE = 'file:///C:/Jobs/4711/';

/** checkUrl's categories: what the issue names, each one form of value. */
export const CHECK_CATEGORIES: Record<string, (i: number) => Value> = {
  plain: (i) => ({ value: `pages/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  escaped: (i) => ({ value: `Brosch%C3%BCre%20${pad(i)}/Logo%20final.pdf`, base: LOCAL_BASE }),
  'raw space': (i) => ({ value: `my docs/p ${pad(i)}.pdf`, base: LOCAL_BASE }),
  'backslash/UNC': (i) => ({ value: i % 2 ? `\\\\server\\share\\p${pad(i)}.pdf` : `pages\\p${pad(i)}.pdf`, base: LOCAL_BASE }),
  'non-ASCII': (i) => ({ value: `Broschüre(88-0026)/Seite ${pad(i)}.pdf`, base: BASE }),
  'absolute file': (i) => ({ value: `file://kie-wf16prdy/PTJobs/Jobs/Job${i % 97}/Content/p${pad(i)}.pdf`, base: BASE }),
  'drive letter': (i) => ({ value: i % 2 ? `file:///C:/Jobs/4711/p${pad(i)}.pdf` : `file:/C:/Jobs/4711/p${pad(i)}.pdf`, base: BASE }),
  http: (i) => ({ value: `http://10.1.0.150:8080/prodflow/content/p${pad(i)}.pdf`, base: BASE }),
  cid: (i) => ({ value: `cid:part${i}@example.com`, base: BASE }),
};

/** The mix of forms in real tickets' URL values (a third of them with a finding). */
export function mixedValues(count: number, seed = 11): Value[] {
  const rnd = random(seed);
  const out: Value[] = [];
  const pick = (name: string, i: number) => CHECK_CATEGORIES[name]!(i);
  for (let i = 0; i < count; i++) {
    const k = rnd();
    if (k < 0.3) out.push(pick('plain', i));
    else if (k < 0.55) out.push(pick('absolute file', i));
    else if (k < 0.65) out.push(pick('http', i));
    else if (k < 0.78) out.push(pick('drive letter', i));
    else if (k < 0.83) out.push({ value: `../Shared/Fonts/f${pad(i)}.otf`, base: BASE });
    else if (k < 0.88) out.push(pick('escaped', i));
    else if (k < 0.92) out.push(pick('non-ASCII', i));
    else if (k < 0.95) out.push(pick('cid', i));
    else if (k < 0.98) out.push(pick('raw space', i));
    else out.push(pick('backslash/UNC', i));
  }
  return out;
}

/** resolveReference's categories (RFC 3986 5.2): every reference form, dot segments included. */
export const RESOLVE_CATEGORIES: Record<string, (i: number) => Value> = {
  'plain name': (i) => ({ value: `p${pad(i)}.pdf`, base: LOCAL_BASE }),
  'folder/name': (i) => ({ value: `pages/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  './name': (i) => ({ value: `./pages/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  '../name': (i) => ({ value: `../F-22/p${pad(i)}.pdf`, base: 'file:///c:/DownloadDir/Title-J626103/' }),
  '../../name': (i) => ({ value: `../../Shared/p${pad(i)}.pdf`, base: 'file://fileserver/Jobs/4711/sub/' }),
  'a/./b/../c': (i) => ({ value: `pages/./x/../p${pad(i)}.pdf`, base: LOCAL_BASE }),
  '/absolute-path': (i) => ({ value: `/Jobs/p${pad(i)}.pdf`, base: 'file://fileserver/Jobs/4711/' }),
  '//network-path': (i) => ({ value: `//server2/share/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  'absolute URL': (i) => ({ value: `file:///c:/jobs/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  'escaped name': (i) => ({ value: `my%20docs/M%C3%BCller%20${pad(i)}.pdf`, base: LOCAL_BASE }),
  '/path on a drive': (i) => ({ value: `/Jobs/p${pad(i)}.pdf`, base: LOCAL_BASE }),
  '#fragment, ?query': (i) => ({ value: i % 2 ? `#page=${i}` : `?v=${i}`, base: `${LOCAL_BASE}ticket.jdf` }),
  'empty reference': () => ({ value: '', base: `${LOCAL_BASE}ticket.jdf#top` }),
};

export function valuesOf(make: (i: number) => Value, count: number): Value[] {
  return Array.from({ length: count }, (_, i) => make(i));
}
