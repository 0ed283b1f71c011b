#!/usr/bin/env node
import { runCli } from './run.js';

/** The `memdesk` bin: see run.ts and docs/cli.md. */
const code = await runCli({
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
});
process.exitCode = code;
