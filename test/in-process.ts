// The CLI run in the test's own process (src/cli/in-process.ts): what spawnSync of dist/src/cli/main.js gives
// (status, stdout, stderr), without the 150 ms of a process. For what needs a process (signals, a pipe that
// closes, the installed bin) the suites still start one.
import { Readable, Writable } from 'node:stream';
import { main } from '../src/cli/in-process.js';

export interface CliResult { status: number; stdout: string; stderr: string }

/** A stream that keeps what is written to it. */
class Capture extends Writable {
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Runs `jdf-filespec ...args` here, with spawnSync's options: cwd, the working folder (default: this process's);
 * env, the whole environment (default: this process's); input, standard input (default: empty). The output is
 * read as UTF-8 whatever `encoding` says, and kept whole whatever `maxBuffer` says.
 */
export async function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string | Buffer; encoding?: 'utf8'; maxBuffer?: number } = {}): Promise<CliResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const stdin = options.input !== undefined ? Readable.from([Buffer.from(options.input)]) : undefined;
  const status = await main(args, {
    stdout,
    stderr,
    ...(stdin ? { stdin } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}
