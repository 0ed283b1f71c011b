#!/usr/bin/env node

import { anyWarmAdvertised } from '../warm/dir.js';

/** The `memdesk` bin: see run.ts and docs/cli.md. */
// A reader that goes away (`memdesk list | head`) is no error of the command: the rest of its
// output is dropped, and the command still finishes — a note written, a sync round completed —
// and exits with its own code, instead of dying mid-way on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
const env = {
  argv: process.argv.slice(2),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // `npm run memdesk` runs in the package root; the directory it was started from is INIT_CWD.
  cwd:
    process.env.npm_lifecycle_event === 'memdesk' && process.env.INIT_CWD
      ? process.env.INIT_CWD
      : process.cwd(),
};
// `memdesk mcp` answers initialize before the rest of the CLI is loaded (mcp-first.ts).
const mcpFront = env.argv.includes('mcp')
  ? ((await (await import('./mcp-first.js')).startMcpFirst(env.argv, env)) ?? undefined)
  : undefined;
// `memdesk recall` / `hook` / `list` / `search` ask a running memdesk process of the same home and project
// first (warm-first.ts), when any is advertised; the rest of the CLI loads only when it does not answer.
const warm =
  !mcpFront &&
  ['recall', 'hook', 'list', 'search'].some((c) => env.argv.includes(c)) &&
  anyWarmAdvertised(env.env)
    ? await (await import('./warm-first.js')).answerWarm(env)
    : null;
if (warm && 'exitCode' in warm) process.exitCode = warm.exitCode;
else {
  const cli = await (await import('./load-cli.js')).loadCli(env.argv, env.cwd, env.env);
  const exitCode = await cli.runCli({
    ...env,
    ...(warm ?? {}),
    ...(mcpFront ? { mcpFront } : {}),
  });
  process.exitCode = exitCode;
  cli.settle(exitCode);
}
// Its work done, the process ends the moment its event loop has nothing left to do, with the exit
// code it would have had: the point Node's own exit reaches too ('beforeExit': every write
// flushed, every timer, socket and referenced worker done), so nothing pending is cut short. What
// it skips is what comes after — V8 freeing its heap page by page — which a one-shot command's
// caller (an agent's hook) otherwise waits for after the answer (docs/performance.md). Set only
// now, so a command that never settles still ends as Node ends it (code 13); not inside the
// desktop app (`--memdesk-cli`), whose main process ends through Electron.
if (!process.versions.electron) process.once('beforeExit', (code) => process.exit(code));
