/** ESLint's "No files matching the pattern": each folder or pattern that found no ticket said on standard error; true when there was any. */
export function unmatched(paths: readonly string[]): boolean {
  for (const p of paths) process.stderr.write(`jdf-filespec: no tickets found in ${p} (--no-error-on-unmatched-pattern to allow)\n`);
  return paths.length > 0;
}

/** ESLint's warning for a file named on the command line that an ignore pattern matches (it is skipped). */
export function ignoredFiles(paths: readonly string[]): void {
  for (const p of paths) process.stderr.write(`jdf-filespec: ${p}: warning: File ignored because of a matching ignore pattern. Use --no-ignore to override\n`);
}
