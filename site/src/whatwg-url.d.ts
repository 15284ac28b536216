// whatwg-url ships no types; its URL class is the Standard's, the same interface as the global one.
declare module 'whatwg-url' {
  export const URL: typeof globalThis.URL;
}
