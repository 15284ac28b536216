// How big a ticket may be. A ticket becomes one string; V8 holds no string longer than MAX_STRING_LENGTH
// (0x1fffffe8 characters on 64-bit Node 20), and a ticket has at least one character per two bytes (UTF-16).
import { constants } from 'node:buffer';

/** The largest --max-bytes accepted: a ticket this big still decodes into one string (one byte a character, at worst). */
export const ENGINE_MAX_BYTES: number = constants.MAX_STRING_LENGTH;

/** The default size limit, one for the browser-usable core and the Node edge (see src/rules/types.ts). */
export { DEFAULT_MAX_BYTES } from '../rules/types.js';
