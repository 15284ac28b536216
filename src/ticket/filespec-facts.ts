// What a FileSpec says about its file (JDF 1.7 FileSpec: FileSize, CheckSum, MimeType): compared with the
// bytes by validate --check-exists. Never the Password (JDF 1.7 FileSpec/@Password), which is never reported.
import { NONE, type ElementTree } from './xml/index.js';

export interface FileSpecFacts {
  FileSize?: string;
  CheckSum?: string;
  MimeType?: string;
  /** RunList/@NPage and RunList/@Pages of the RunList that holds the FileSpec (JDF: RunList/LayoutElement/FileSpec; XJDF: RunList/FileSpec). */
  NPage?: string;
  Pages?: string;
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
  let holder = tree.parent(element);
  if (holder !== NONE && tree.local(holder) === 'LayoutElement') holder = tree.parent(holder);
  if (holder !== NONE && tree.local(holder) === 'RunList') {
    for (const name of ['NPage', 'Pages'] as const) {
      const value = tree.attribute(holder, name)?.value;
      if (value !== undefined) (facts ??= {})[name] = value.trim();
    }
  }
  return facts;
}
