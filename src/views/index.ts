// Views of one storage: match a URL to the table, name it in another view, find it on this machine. Pure.
export type { MappedBy, Storage, ViewEntry, ViewOptions, ViewTable } from './types.js';
export { DEFAULT_MACHINE } from './types.js';
export { matchView, splitUrl, type ViewMatch } from './match.js';
export { entriesOf, inView, machineCandidates } from './translate.js';
export { mapReference, mappedByUnchecked, type MappedReference } from './map.js';
export { buildTable, machineView, prefixUrl, withMaps, type TableProblem, type ViewsConfig } from './build.js';
