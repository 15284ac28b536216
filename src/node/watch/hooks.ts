// --on-ok / --on-error: a program run after routing with the ticket's and the report's paths as its two
// arguments. No shell and nothing from the ticket's content: the paths are our own names in OK or ERROR.
// Its output goes to our standard error, so standard output stays the event log.
import { spawn } from 'node:child_process';

export interface HookResult {
  code: number | null;
  signal: string | null;
  error?: string;
}

export function runHook(program: string, ticket: string, report: string, timeoutMs = 300_000): Promise<HookResult> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(program, [ticket, report], { shell: false, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, windowsHide: true });
    } catch (error) {
      resolve({ code: null, signal: null, error: (error as Error).message });
      return;
    }
    child.stdout.pipe(process.stderr, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.once('error', (error) => resolve({ code: null, signal: null, error: error.message }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}
