// Injected by the build in the worker (it must import nothing: whatwg-url reads it while loading).
/**
 * whatwg-url and webidl-conversions read SharedArrayBuffer.prototype's byteLength when they load; a page that is
 * not cross-origin isolated has no SharedArrayBuffer, so they get a stand-in (the URL class never meets one).
 */
class NoSharedArrayBuffer {
  get byteLength(): number {
    return 0;
  }

  get growable(): boolean {
    return false;
  }
}
const existing = (globalThis as unknown as Record<string, unknown>)['SharedArrayBuffer'];
const SharedArrayBufferOrStandIn = (existing ?? NoSharedArrayBuffer) as typeof globalThis.SharedArrayBuffer;
export { SharedArrayBufferOrStandIn as SharedArrayBuffer };
