import type { UriComponents } from './components.js';

// RFC 3986 5.3
export function recompose(t: UriComponents): string {
  let result = '';
  if (t.scheme !== undefined) result += t.scheme + ':';
  if (t.authority !== undefined) {
    result += '//' + t.authority;
  } else if (t.path.startsWith('//')) {
    // RFC 3986 3.3: without an authority the path cannot begin with "//"; "/." keeps "//p" a path
    // (remove_dot_segments("/.//p") is "//p", which must not come back as the authority "p").
    result += '/.';
  }
  result += t.path;
  if (t.query !== undefined) result += '?' + t.query;
  if (t.fragment !== undefined) result += '#' + t.fragment;
  return result;
}
