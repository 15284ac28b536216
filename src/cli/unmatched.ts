/** ESLint's "No files matching the pattern": each folder or pattern that found no ticket said on standard error; true when there was any. */
export function unmatched(paths: readonly string[]): boolean {
  for (const p of paths) process.stderr.write(`jdf-filespec: no tickets found in ${p} (--no-error-on-unmatched-pattern to allow)\n`);
  return paths.length > 0;
}
