// Which attributes of which JDF, XJDF and JMF elements hold URLs (matched on local names, any namespace).
import type { Role } from '../rules/types.js';

export interface UrlAttribute {
  attribute: string;
  role: Role;
}

export const URL_ATTRIBUTES: Readonly<Record<string, readonly UrlAttribute[]>> = {
  FileSpec: [{ attribute: 'URL', role: 'url' }],
  RunList: [{ attribute: 'Directory', role: 'directory' }],
  Preview: [{ attribute: 'Directory', role: 'directory' }, { attribute: 'URL', role: 'url' }],
  Device: [{ attribute: 'Directory', role: 'directory' }],
  FileAlias: [{ attribute: 'URL', role: 'url' }],
  Spawned: [{ attribute: 'URL', role: 'url' }],
  Merged: [{ attribute: 'URL', role: 'url' }],
  QueueSubmissionParams: [{ attribute: 'URL', role: 'url' }],
  ResubmissionParams: [{ attribute: 'URL', role: 'url' }],
  ReturnQueueEntryParams: [{ attribute: 'URL', role: 'url' }],
};

/** Resource elements an rRef may point at whose subtree holds file references (they are the ones whose IDs we read). */
export const REFERENCE_TARGETS: ReadonlySet<string> = new Set(['FileSpec', 'LayoutElement', 'RunList', 'ColorSpaceConversionParams', 'ByteMap', 'Preview', 'Device']);

/** An inline resource reference: FileSpecRef, LayoutElementRef, RunListRef, ... (not the *Link of a ResourceLinkPool). */
export const isRefElement = (local: string): boolean => local.length > 3 && local.endsWith('Ref');

export const TICKET_ROOTS: ReadonlySet<string> = new Set(['JDF', 'XJDF', 'JMF', 'XJMF']);
