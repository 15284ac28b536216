// npm run build, after tsc: the bundle (bundle.ts) only when what it is made from changed since it was last
// made (bundle-stamp.ts), so that `npm test` right after `npm start` does not bundle again.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { upToDate } from './bundle-stamp.js';

if (!upToDate(path.join(fileURLToPath(new URL('../../', import.meta.url)), 'dist/bin'))) await import('./bundle.js');
