// serve's listener options (src/cli/serve-server-options.ts) parsed as the CLI parses them (yargs with the
// program's settings, src/cli/program.ts): a bad value is a UsageError naming the option (the CLI prints it as
// one line and exits 2, never a stack trace), and what the files say reaches ServerOptions.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import yargs from 'yargs';
import { UsageError } from '../src/cli/define.js';
import { DEFAULT_MAX_CONCURRENT, serverOptions } from '../src/cli/serve-server-options.js';
import { closeAccessLog, serverOptionsFrom, serveUntilSignalled, type ServerArgs } from '../src/cli/serve-listener.js';
import { SERVER_DEFAULTS } from '../src/node/serve/options.js';
import { startServer, type ServerOptions } from '../src/node/serve/server.js';
import { removeTempFolders, tempFolder } from './helpers.js';

test.after(removeTempFolders);

/** What `jdf-filespec serve ARGS` makes of the listener's options: ServerOptions, or the usage error's message. */
async function parse(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerOptions | string> {
  try {
    const parser = serverOptions(yargs(args).parserConfiguration({ 'parse-numbers': false }))
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new UsageError(message);
      });
    const parsed = await parser.parseAsync();
    return serverOptionsFrom(parsed as unknown as ServerArgs, env);
  } catch (error) {
    // What program.ts prints as a usage error (exit 2): ours, and yargs' own (a coerce's error comes wrapped).
    if (error instanceof UsageError || (error instanceof Error && error.name === 'YError')) return error.message;
    throw error;
  }
}

async function usage(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await parse(args, env);
  assert.type(r, 'string', `${args.join(' ')} is a usage error`);
  return r as string;
}

test('the defaults: loopback, port 8080, 64 MiB bodies, 16 KiB heads, 16 at once, 2 minutes a request, 30 s grace, no auth, no TLS', async () => {
  const options = await parse([]);
  assert.equal(options, {
    host: '127.0.0.1', port: 8080, maxBodyBytes: 64 * 1024 * 1024, maxHeaderBytes: 16 * 1024, maxConcurrent: 16,
    requestTimeoutMs: 120_000, shutdownGraceMs: 30_000, authOps: false, insecure: false,
  });
});

for (const [option, value] of [['port', 'abc'], ['port', '-1'], ['port', '0x50'], ['max-body', '10 parsecs'], ['max-body', '1e6'], ['max-header-bytes', 'lots'],
  ['max-concurrent', '0'], ['max-concurrent', '2.5'], ['request-timeout', '5x'], ['request-timeout', '0'], ['shutdown-grace', '-1s']] as const) {
  test(`--${option} "${value}" is a usage error naming --${option} and the value`, async () => {
    const message = await usage([`--${option}=${value}`]);
    assert.match(message, `--${option}`);
    assert.match(message, `"${value}"`);
  });
}

test('sizes and durations are read as written: --max-body 1MiB, --max-header-bytes 8kB, --request-timeout 1.5s, --shutdown-grace 500ms', async () => {
  const options = await parse(['--max-body', '1MiB', '--max-header-bytes', '8kB', '--request-timeout', '1.5s', '--shutdown-grace', '500ms', '--max-concurrent', '3']) as ServerOptions;
  assert.is(options.maxBodyBytes, 1_048_576);
  assert.is(options.maxHeaderBytes, 8_000);
  assert.is(options.requestTimeoutMs, 1_500);
  assert.is(options.shutdownGraceMs, 500);
  assert.is(options.maxConcurrent, 3);
});

test('a non-loopback --host needs authentication, TLS or --insecure: the usage error says which options', async () => {
  const folder = tempFolder('jfs-serve-opts-');
  const tokens = path.join(folder, 'tokens');
  writeFileSync(tokens, 'mis:abc123\n');
  for (const host of ['0.0.0.0', '::', '192.0.2.7']) {
    const message = await usage(['--host', host]);
    assert.match(message, host);
    assert.match(message, '--insecure');
    assert.match(message, '--auth-basic-file');
  }
  assert.is((await parse(['--host', '0.0.0.0', '--insecure']) as ServerOptions).insecure, true);
  assert.equal((await parse(['--host', '0.0.0.0', '--auth-bearer-file', tokens]) as ServerOptions).credentials, { bearer: [{ name: 'mis', token: 'abc123' }] });
  assert.type(await parse(['--host', '::1']), 'object');
  assert.type(await parse(['--host', 'localhost']), 'object');
});

test('credential files: missing, empty or malformed is a usage error naming the file (and the line); never the secret', async () => {
  const folder = tempFolder('jfs-serve-opts-');
  const missing = path.join(folder, 'none');
  assert.match(await usage(['--auth-basic-file', missing]), `--auth-basic-file ${missing}: cannot be read (ENOENT)`);
  const bad = path.join(folder, 'bad');
  writeFileSync(bad, '# users\nmis:secret-one\nno-colon-here\n');
  const message = await usage(['--auth-basic-file', bad]);
  assert.match(message, 'line 3');
  assert.not.match(message, 'secret-one');
  const empty = path.join(folder, 'empty');
  writeFileSync(empty, '# nobody\n\n');
  assert.match(await usage(['--auth-bearer-file', empty]), 'no token');
  const spaces = path.join(folder, 'spaces');
  writeFileSync(spaces, 'a token with spaces\n');
  assert.match(await usage(['--auth-bearer-file', spaces]), 'line 1');
  const good = path.join(folder, 'good');
  writeFileSync(good, 'mis:pa:ss\r\n\r\npress:x\r\n');
  assert.equal((await parse(['--auth-basic-file', good]) as ServerOptions).credentials, { basic: [{ user: 'mis', password: 'pa:ss' }, { user: 'press', password: 'x' }] });
});

test('--auth-bearer-env names the variable holding the token; unset is a usage error; --auth-ops needs credentials', async () => {
  assert.match(await usage(['--auth-bearer-env', 'JFS_TOKEN']), '--auth-bearer-env JFS_TOKEN: the variable is not set');
  const options = await parse(['--auth-bearer-env', 'JFS_TOKEN', '--auth-ops'], { JFS_TOKEN: 's3cret.token' }) as ServerOptions;
  assert.equal(options.credentials, { bearer: [{ name: 'JFS_TOKEN', token: 's3cret.token' }] });
  assert.is(options.authOps, true);
  assert.match(await usage(['--auth-ops']), '--auth-ops needs');
});

test('--tls-key and --tls-cert go together and must be readable', async () => {
  const folder = tempFolder('jfs-serve-opts-');
  const key = path.join(folder, 'key.pem');
  writeFileSync(key, 'not really a key');
  assert.match(await usage(['--tls-key', key]), '--tls-key and --tls-cert go together');
  assert.match(await usage(['--tls-key', key, '--tls-cert', path.join(folder, 'nope.pem')]), '--tls-cert');
  const options = await parse(['--tls-key', key, '--tls-cert', key]) as ServerOptions;
  assert.is(String(options.tls?.key), 'not really a key');
});

test('--access-log: a file that cannot be written is a usage error at start; a file gets one JSON line per request', async () => {
  const folder = tempFolder('jfs-serve-opts-');
  assert.match(await usage(['--access-log', path.join(folder, 'no', 'such', 'folder.log')]), 'cannot be written (ENOENT)');
  const log = path.join(folder, 'access.log');
  const users = path.join(folder, 'users');
  writeFileSync(users, 'mis:pw\n');
  const options = await parse(['--port', '0', '--access-log', log, '--auth-basic-file', users]) as ServerOptions;
  const server = await startServer(options, async () => ({ status: 204, headers: {}, body: '' }));
  const status = await new Promise<string>((resolve) => execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-u', 'mis:pw', `http://127.0.0.1:${server.port}/x`], (_e, out) => resolve(out)));
  await server.close(0);
  await closeAccessLog(options);
  assert.is(status, '204');
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  assert.is(lines.length, 1);
  assert.is(lines[0].status, 204);
  assert.is(lines[0].user, 'mis');
});

test('--help names every listener option and says what each numeric one takes', async () => {
  const help = await serverOptions(yargs([]).parserConfiguration({ 'parse-numbers': false })).exitProcess(false).getHelp();
  for (const [option, takes] of [['port', 'whole number'] as const, ['max-body', 'size in bytes'], ['max-header-bytes', 'size in bytes'], ['max-concurrent', 'whole number'], ['request-timeout', 'duration'], ['shutdown-grace', 'duration']]) {
    const line = help.split('\n').find((l) => l.trimStart().startsWith(`--${option} `)) ?? '';
    assert.ok(line, `--${option} is in the help`);
    assert.not.match(line, '[string]');
    assert.match(help.slice(help.indexOf(`--${option} `)).replace(/\s+/g, ' '), takes);
  }
  for (const option of ['host', 'auth-basic-file', 'auth-bearer-file', 'auth-bearer-env', 'auth-ops', 'tls-key', 'tls-cert', 'insecure', 'access-log']) assert.match(help, `--${option}`);
});

test('serveUntilSignalled (what serve runs): says where it listens, serves, stops on SIGTERM with exit code 0; a port in use is a usage error', async () => {
  const said: string[] = [];
  const options = await parse(['--port', '0', '--shutdown-grace', '1s']) as ServerOptions;
  const done = serveUntilSignalled(options, async () => ({ status: 200, headers: {}, body: 'served\n' }), (line) => said.push(line));
  while (said.length === 0) await new Promise((r) => setTimeout(r, 10));
  const url = /^listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(said[0]!)?.[1];
  assert.ok(url, said[0]);
  const body = await new Promise<string>((resolve) => execFile('curl', ['-sS', url!], (_e, out) => resolve(out)));
  assert.is(body, 'served\n');
  // A second server on the same port: the CLI's usage error, with the port's reason.
  const port = Number(/:(\d+)\/$/.exec(url!)![1]);
  const busy = await serveUntilSignalled({ ...options, port }, async () => ({ status: 200, headers: {}, body: '' }), () => undefined).then(() => 'started', (e: unknown) => e);
  assert.instance(busy, UsageError);
  assert.match((busy as Error).message, 'EADDRINUSE');
  process.emit('SIGTERM');
  assert.is(await done, 0);
  assert.match(said[1]!, /^SIGTERM: not taking new requests/, JSON.stringify(said));
  assert.is(process.listenerCount('SIGTERM'), 0, 'the handlers are removed once closed');
});

test('--max-concurrent\'s default in --help is the listener\'s own default', () => {
  assert.is(DEFAULT_MAX_CONCURRENT, SERVER_DEFAULTS.maxConcurrent);
});

test.run();
