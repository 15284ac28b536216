// One set of platform names on every command: `unix` and `posix` name one platform (check, validate and fix
// call it unix, to-path and from-path posix; each takes both).
import type { PathPlatform } from '../paths/convert.js';
import type { Platform } from '../rules/types.js';

/** --platform of check, validate, fix: the consumer that opens the files (any: no particular one). */
export const CONSUMER_PLATFORMS = ['any', 'windows', 'mac', 'unix', 'posix'] as const;
/** --platform of to-path and from-path. */
export const PATH_PLATFORM_NAMES = ['posix', 'unix', 'windows', 'mac', 'vms'] as const;

export const consumerPlatform = (name: (typeof CONSUMER_PLATFORMS)[number]): Platform => (name === 'posix' ? 'unix' : name);
export const pathPlatform = (name: (typeof PATH_PLATFORM_NAMES)[number]): PathPlatform => (name === 'unix' ? 'posix' : name);

/** The --platform option of check, validate, fix and the commands that share their rules. */
export const consumerPlatformOption = { choices: CONSUMER_PLATFORMS, default: 'any' as const, coerce: consumerPlatform };
