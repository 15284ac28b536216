// What a FileSpec says about its file (JDF 1.7 FileSpec: FileSize, CheckSum, MimeType): compared with the
// bytes by validate --check-exists. Never the Password (JDF 1.7 FileSpec/@Password), which is never reported.
import type { ElementTree } from './elements.js';

export interface FileSpecFacts {
  FileSize?: string;
  CheckSum?: string;
  MimeType?: string;
}

const NAMES = ['FileSize', 'CheckSum', 'MimeType'] as const;

/** The facts a FileSpec element declares, or undefined when it declares none (or is not a FileSpec). */
export function fileSpecFacts(tree: ElementTree, element: number): FileSpecFacts | undefined {
  if (tree.local(element) !== 'FileSpec') return undefined;
  let facts: FileSpecFacts | undefined;
  for (const name of NAMES) {
    const value = tree.attribute(element, name)?.value;
    if (value !== undefined) (facts ??= {})[name] = value.trim();
  }
  return facts;
}
