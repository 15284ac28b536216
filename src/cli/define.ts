// What a command is: its yargs options (loaded for every run, so light) and the code that runs it (loaded only
// when that command runs, through a dynamic import inside `run`).
import type { Argv, ArgumentsCamelCase } from 'yargs';

/** Exit codes: 0 no error finding, 1 an error finding, 2 usage error or unreadable input. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** A mistake in how the command was called: printed as one line with a pointer to --help, exit 2. */
export class UsageError extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds commands of different argument types
export interface CommandDef<T = any> {
  /** yargs' command string, e.g. `check [urls..]`. */
  command: string;
  describe: string;
  /** Options, positionals and examples only: this runs whenever the command is named, even for --help. */
  builder: (y: Argv) => Argv<T>;
  /** Imports the command's own module (what `run` imports first): main.ts starts it while yargs loads. */
  load: () => Promise<unknown>;
  /** Imports the command's own module and runs it; returns the exit code. */
  run: (args: ArgumentsCamelCase<T>) => Promise<number>;
}

/** Types one command's handler by its builder's options. */
export function defineCommand<T>(def: CommandDef<T>): CommandDef<T> {
  return def;
}

/** yargs drops a bare "-" from positionals, so it travels through the parser under another name. */
export const STDIN_ARG = '\u0000stdin';

/** The paths given, with standard input named "-" again. */
export function givenPaths(paths: readonly unknown[] | undefined): string[] {
  return (paths ?? []).map((p) => (String(p) === STDIN_ARG ? '-' : String(p)));
}
