#!/usr/bin/env node
import { runCli } from './run.js';

/** The `memdesk` bin: see run.ts and docs/cli.md. */
const code = await runCli({
  argv: process.argv.slice(2),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
