// Writes docs/rules.md and src/rules/codes.ts (the RuleCode union) from the rule catalog: `npm run docs`.
import { writeFileSync } from 'node:fs';
import { ruleCatalog } from '../src/rules/catalog.js';
import { renderRuleCodes, renderRulesDoc } from '../src/rules/doc.js';

writeFileSync(new URL('../../docs/rules.md', import.meta.url), renderRulesDoc(ruleCatalog));
writeFileSync(new URL('../../src/rules/codes.ts', import.meta.url), renderRuleCodes(ruleCatalog));
console.log(`wrote docs/rules.md and src/rules/codes.ts (${ruleCatalog.length} rules)`);
