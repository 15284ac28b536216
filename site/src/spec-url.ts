// The worker's URL is the WHATWG URL Standard's reference implementation (whatwg-url), injected by the build
// in place of the browser's own: Chromium reads "file://c:/a.pdf" and "c|/a" otherwise than the Standard
// (and Node, which the command line runs on), and the library's "WHATWG URL" reading must be the same here.
export { URL } from 'whatwg-url';
