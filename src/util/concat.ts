// Byte arrays joined: the package readers' parts, a rewritten ticket's pieces, a diff's hunks.

/** `parts` as one array; a single part that is the whole is returned as it is. */
export function concat(parts: readonly Uint8Array[], total = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === total) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
