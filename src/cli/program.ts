// The command line: yargs and the commands' options only. Each command's own code is imported when it runs,
// so --help, --version and a quick `check` do not pay for the XML parser or the other commands. The bin
// (main.ts) runs it on the process's arguments; the tests run it in their own process too (in-process.ts).
import { COMMANDS } from './commands/index.js';
import { EXIT, STDIN_ARG, UsageError } from './define.js';
import { packageVersion } from './version.js';

/** Runs the command line on rawArgv, writing to process.stdout and process.stderr; resolves with the exit code. */
export async function main(rawArgv: string[]): Promise<number> {
  // --version alone needs no parser: answered before yargs loads (a third of a cold start).
  if (rawArgv.length === 1 && rawArgv[0] === '--version') {
    process.stdout.write(packageVersion() + '\n');
    return EXIT.clean;
  }
  // The command named first starts loading its own module now, beside yargs: the two loads overlap (a cold
  // validate of one ticket 10 ms sooner). Not for help, which runs no command.
  const named = COMMANDS.find((def) => def.command.split(' ')[0] === rawArgv[0]);
  if (named && !rawArgv.some((a) => a === '--help' || a === '-h')) named.load().catch(() => undefined);
  const { default: yargs } = await import('yargs');
  let exitCode: number = EXIT.clean;
  const argv = rawArgv.map((a) => (a === '-' ? STDIN_ARG : a));
  const parser = yargs(argv)
    .scriptName('jdf-filespec')
    // Numeric options have no yargs type: they are read as written by src/cli/numbers.ts (yargs' numbers take
    // 0x2 and 1e3, and "abc" as NaN), and a string type would show "[string]" in --help. Each option's help says
    // what it takes instead.
    .parserConfiguration({ 'parse-numbers': false })
    .usage('$0 <command> [options]\n\nFinds, resolves and checks the file references of JDF job tickets (JDF file-URL appendix, RFC 8089, RFC 3986).');
  for (const def of COMMANDS) {
    parser.command(def.command, def.describe, def.builder, async (args) => {
      exitCode = await def.run(args);
    });
  }
  parser
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .locale('en') // every other word we print is English; yargs would otherwise follow LANG for its own
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      // recommendCommands' "Did you mean x?" comes alone; say what was not a command.
      const unknown = argv.find((a) => !a.startsWith('-'));
      throw new UsageError(message.startsWith('Did you mean') && unknown ? `Unknown command "${unknown}". ${message}` : message);
    });
  try {
    // With a callback, yargs hands back what it would print (--help, --version) instead of calling console.log,
    // which stays bound to the stream it first wrote to: written here, it goes where process.stdout goes now.
    let said = '';
    await parser.parseAsync(argv, {}, (_error, _argv, output) => {
      said = output;
    });
    if (said) process.stdout.write(`${said}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`jdf-filespec: ${message}\nRun "jdf-filespec --help" for usage.\n`);
    return EXIT.usage;
  }
  return exitCode;
}
