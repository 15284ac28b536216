// --quiet (ESLint's): the error findings only, in every format.

/** The error findings of a list (what --quiet keeps). */
export function errorFindings<F extends { severity: string }>(findings: readonly F[]): F[] {
  return findings.filter((f) => f.severity === 'error');
}

/** A list of findings as the report shows it: errors only under --quiet, else all of them. */
export function shownFindings<F extends { severity: string }>(findings: readonly F[], quiet: boolean): readonly F[] {
  return quiet ? errorFindings(findings) : findings;
}
