// jdf-filespec resolve: RFC 3986 section 5.2 on one reference.
import { resolveReference } from '../uri/resolve.js';
import { EXIT } from './define.js';

export async function runResolve(reference: string, base: string, drivePreserving: boolean): Promise<number> {
  process.stdout.write(resolveReference(reference, base, { drivePreserving }) + '\n');
  return EXIT.clean;
}
