// Every command of the CLI, in --help order. A new command is a definition file here (options, examples, and a
// `run` that imports its own module) plus one line below.
import type { CommandDef } from '../define.js';
import { check } from './check.js';
import { validate } from './validate.js';
import { fix } from './fix.js';
import { rebase } from './rebase.js';
import { relocate } from './relocate.js';
import { toPath, fromPath } from './paths.js';
import { resolve } from './resolve.js';
import { pack } from './pack.js';
import { unpack } from './unpack.js';
import { watch } from './watch.js';
import { serve } from './serve.js';

export const COMMANDS: readonly CommandDef[] = [
  check,
  validate,
  fix,
  rebase,
  relocate,
  toPath,
  fromPath,
  resolve,
  pack,
  unpack,
  watch,
  serve,
];
