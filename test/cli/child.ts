import { spawn } from 'node:child_process';
import { tsxLoader } from '../memory/helpers.js';

/** The real CLI's entry point, run from its TypeScript sources (no build needed). */
const entry = new URL('../../electron/transports/cli/memdesk.ts', import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `memdesk ARGS` in a child process with only PATH and HOME (= cwd) from this environment. */
export function memdesk(
  args: string[],
  opts: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, entry, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: opts.cwd, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
