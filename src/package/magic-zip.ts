// A zip by its first four bytes (APPNOTE 4.3.7 local file header, or 4.3.16 the end record of an empty zip), in
// a room of its own so that telling a package from a ticket loads no zip reader.

/** Whether the bytes start a zip. */
export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}
