// Writes docs/rules.md from the rule catalog: `npm run docs`.
import { writeFileSync } from 'node:fs';
import { ruleCatalog } from '../src/rules/catalog.js';
import { renderRulesDoc } from '../src/rules/doc.js';

const target = new URL('../../docs/rules.md', import.meta.url);
writeFileSync(target, renderRulesDoc(ruleCatalog));
console.log(`wrote docs/rules.md (${ruleCatalog.length} rules)`);
