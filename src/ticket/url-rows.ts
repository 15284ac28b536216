// What the walk reads of a vocabulary list for each attribute of a start tag: each attribute's first row, as an
// object of one shape. The vocabulary's rows come in several shapes (their optional qualifiers), and reading them
// on every attribute made the walk's hottest method deoptimise on a row of a shape it had not seen (a cold run).
import type { UrlAttribute, VocabularyRole } from './vocabulary.js';

export interface UrlRow {
  role: VocabularyRole;
  /** A Directory that is the base of its element's files (UrlAttribute.base). */
  base: boolean;
}

/** The rows of each list the walk meets, made when first asked for. */
export class UrlRows {
  private readonly byList = new Map<readonly UrlAttribute[], ReadonlyMap<string, UrlRow>>();

  /** Each attribute name of `list`, in the order the list first names it, with its first row. */
  of(list: readonly UrlAttribute[]): ReadonlyMap<string, UrlRow> {
    let rows = this.byList.get(list);
    if (rows === undefined) {
      const made = new Map<string, UrlRow>();
      for (const u of list) if (!made.has(u.attribute)) made.set(u.attribute, { role: u.role, base: u.base === true });
      this.byList.set(list, (rows = made));
    }
    return rows;
  }
}
