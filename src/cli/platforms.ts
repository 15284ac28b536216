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

/** This machine's platform: the consumer, when the files are checked (opened) here. */
export const hostPlatform = (): Platform => (process.platform === 'win32' ? 'windows' : 'unix');

/** What the help says of a --platform whose default is this machine's when files are checked here. */
const HOST_DEFAULT = `any; this machine's (${hostPlatform()}) where files are checked here`;

/**
 * The --platform of commands that check files on this machine (validate --check-exists, watch --check-exists,
 * pack): no yargs default (hostPlatformDefault overrides the shared option's), so that an explicit --platform is
 * told from none; `platformHere` fills it in.
 */
export const hostPlatformDefault = { default: undefined, defaultDescription: HOST_DEFAULT };
export const hostPlatformOption = { choices: CONSUMER_PLATFORMS, coerce: consumerPlatform, ...hostPlatformDefault };

/** The platform to check with: the one given, else this machine's where files are checked here, else any. */
export const platformHere = (given: Platform | undefined, filesHere: boolean): Platform => given ?? (filesHere ? hostPlatform() : 'any');
