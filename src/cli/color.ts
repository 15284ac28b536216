// Colour or not, as command-line tools agree: --color / --no-color first, then FORCE_COLOR (which Node itself
// lets win over NO_COLOR), then NO_COLOR (no-color.org: set and not empty), then whether the output is a terminal.
export function useColor(flag: boolean | undefined, output: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return output.isTTY === true;
}
