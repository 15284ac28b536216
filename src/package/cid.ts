// RFC 2392 2: a cid: URL names the part whose Content-ID, without angle brackets, equals the URL's
// addr-spec after percent-decoding.

export function cidToContentId(url: string): string | undefined {
  const m = /^\s*cid:(.*?)\s*$/i.exec(url);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** RFC 2392 2: the cid: URL for a Content-ID; "%", "/", "?", "#", "<", ">", "\"" and non-URL characters escaped. */
export function contentIdToCid(id: string): string {
  return 'cid:' + encodeURIComponent(id).replace(/%40/g, '@').replace(/%2B/g, '+').replace(/%3D/g, '=').replace(/%24/g, '$').replace(/%26/g, '&');
}
