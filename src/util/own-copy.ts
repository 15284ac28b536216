// Strings kept past the ticket they were read from.

/**
 * A string with the same characters that shares no storage with `s`. V8 takes a slice of a long string as a view
 * of it, so a value sliced from a ticket's text and kept after the ticket is done (a base every reference reports)
 * would keep the whole text alive; joining makes a string of its own, and a slice of that is a view of the copy.
 * Elsewhere it is just the same string.
 */
export function ownCopy(s: string): string {
  return s.length === 0 ? s : (' ' + s).slice(1);
}
