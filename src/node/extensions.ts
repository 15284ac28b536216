// What a folder's search takes, by extension: one table for the search and for --help.

/** Tickets: JDF, XJDF, JMF, XJMF, PrintTalk (.ptk) and .xml. */
export const TICKET_EXTENSIONS: readonly string[] = ['.jdf', '.xjdf', '.jmf', '.xjmf', '.ptk', '.xml'];

/** MIME packages (.mjm, .mjd, JDF 1.x section 9.1): found in folders like tickets (PrintTalk's .ptk is a ticket). */
export const PACKAGE_EXTENSIONS: readonly string[] = ['.mjm', '.mjd', '.mim'];

/**
 * What a folder is searched for: tickets, MIME packages, and zips, of which only job packages are taken (a zip
 * whose central directory names a ticket at its top level, the root XJDF 2.0 zip packaging requires): a zip of
 * fonts, images or anything else in a job folder is not a job, and is left alone.
 */
export const FOLDER_EXTENSIONS: readonly string[] = [...new Set([...TICKET_EXTENSIONS, ...PACKAGE_EXTENSIONS, '.zip'])];
