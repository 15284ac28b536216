// Secrets a ticket carries outside URLs: FileSpec/@Password (JDF 1.7 FileSpec: the password of an encrypted
// file) and NetworkHeader values (JDF 1.7, XJDF: HTTP headers such as Authorization for a URL). Masked as
// "****" wherever ticket text is shown, as a URL's password is.

const MASK = '****';

/** Password="..." on any element (with any prefix), and the Value of a NetworkHeader, masked in XML text. */
export function redactSecrets(text: string): string {
  if (!/Password|NetworkHeader/.test(text)) return text;
  let out = text.replace(/(\s(?:[\w.-]+:)?Password\s*=\s*)(["'])([^"']*)\2/g, (_, head: string, q: string, v: string) => `${head}${q}${v === '' ? '' : MASK}${q}`);
  out = out.replace(/<(?:[\w.-]+:)?NetworkHeader\b[^>]*>/g, (tag) => tag.replace(/(\s(?:[\w.-]+:)?Value\s*=\s*)(["'])([^"']*)\2/g, (_, head: string, q: string, v: string) => `${head}${q}${v === '' ? '' : MASK}${q}`));
  return out;
}
