#!/usr/bin/env node
// The bin: the command line (program.ts) on this process's arguments, its exit code the process's.
import { EXIT } from './define.js';
import { main } from './program.js';

// A reader that closes the pipe early (`validate ... | head`) is no error: what is left to write goes nowhere,
// and the run ends with its verdict, quietly. Any other failure of standard output is said on standard error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') return;
  process.stderr.write(`jdf-filespec: cannot write the output: ${error.message}\n`);
  process.exit(EXIT.usage);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`jdf-filespec: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.usage;
  },
);
