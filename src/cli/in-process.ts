// The command line run inside a process that does other work (the tests: a run here costs a few milliseconds,
// a process of its own 150 ms before any work). For the run, process.stdout, process.stderr and process.stdin
// are the given streams, the working folder and the environment the given ones (relative paths, colour,
// FORCE_COLOR and NO_COLOR follow them), and process.exitCode is left as it was; all is put back after. These
// are the process's own, so runs take turns: one at a time, in the order they were asked for.
import type { Readable, Writable } from 'node:stream';
import { EXIT } from './define.js';
import { main as program } from './program.js';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  /** Standard input; none given: an empty one. */
  stdin?: Readable;
  /** The working folder (default: this process's). */
  cwd?: string;
  /** The whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

let turn: Promise<unknown> = Promise.resolve();

/** Runs the command line on argv (no "node" or script name) with io's streams, folder and environment; resolves with its exit code. */
export function main(argv: string[], io: CliIo): Promise<number> {
  const run = turn.then(() => inside(argv, io));
  turn = run.catch(() => undefined);
  return run;
}

async function inside(argv: string[], io: CliIo): Promise<number> {
  const names = ['stdout', 'stderr', 'stdin'] as const;
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(process, name)!);
  const { env, exitCode } = process;
  const cwd = process.cwd();
  const { Readable } = await import('node:stream');
  const streams = { stdout: io.stdout, stderr: io.stderr, stdin: io.stdin ?? Readable.from([]) };
  try {
    for (const name of names) Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => streams[name] });
    if (io.env) process.env = io.env;
    if (io.cwd) process.chdir(io.cwd);
    return await program(argv).catch((error: unknown) => {
      // As the bin says it (main.ts).
      io.stderr.write(`jdf-filespec: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT.usage;
    });
  } finally {
    names.forEach((name, i) => Object.defineProperty(process, name, saved[i]!));
    process.env = env;
    process.exitCode = exitCode;
    process.chdir(cwd);
  }
}
