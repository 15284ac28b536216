// `npm run vocabulary`: writes src/ticket/vocabulary-table.ts and the README's "What is read" list from
// data/url-attributes.json (see data/ORIGIN.md), and src/ticket/vendor-table.ts from data/vendor-vocabularies.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderReadme, renderTable, renderVendorTable, withReadmeList } from './vocabulary-render.js';

const root = new URL('../../', import.meta.url);
const data = JSON.parse(readFileSync(new URL('data/url-attributes.json', root), 'utf8'));
writeFileSync(new URL('src/ticket/vocabulary-table.ts', root), renderTable(data));
const vendors = JSON.parse(readFileSync(new URL('data/vendor-vocabularies.json', root), 'utf8'));
writeFileSync(new URL('src/ticket/vendor-table.ts', root), renderVendorTable(vendors));
const readme = new URL('README.md', root);
writeFileSync(readme, withReadmeList(readFileSync(readme, 'utf8'), renderReadme(data)));
console.log('wrote src/ticket/vocabulary-table.ts, src/ticket/vendor-table.ts and the README list');
