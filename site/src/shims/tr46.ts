// tr46 (UTS #46) for whatwg-url in the worker, by the browser's own host parser, which follows the URL Standard
// for hosts (Chromium departs from it only in file: URLs, which is why whatwg-url is used at all). The full
// tr46 carries 240 KB of Unicode tables; this keeps the page under its budget.
const NativeURL = (globalThis as unknown as Record<string, typeof URL>)['URL']!;

/** domain to ASCII (UTS #46 4.2, with the URL Standard's options when not strict); null on failure. */
export function toASCII(domain: string): string | null {
  // ASCII labels only map upper case to lower case; "xn--" labels need checking, so the browser does those.
  if (/^[\x00-\x7f]*$/.test(domain) && !/(^|\.)xn--/i.test(domain)) return domain.toLowerCase();
  // Delimiters would cut the host short in the browser's parse: leave them for whatwg-url to reject.
  if (/[\s/?#@:\\[\]%]/.test(domain)) return domain.toLowerCase();
  try {
    return new NativeURL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
}

export function toUnicode(domain: string): { domain: string; error: boolean } {
  return { domain, error: false };
}
