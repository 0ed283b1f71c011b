import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_ENTRY = path.join(repo, 'electron/transports/cli/memdesk.ts');
export const TSX_LOADER = import.meta.resolve('tsx');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `memdesk` CLI in a child process (node + tsx), stdin from `input`. */
export function runMemdesk(
  args: string[],
  opts: { cwd: string; home: string; input?: string },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, '--home', opts.home, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: opts.home, OHARNESS_HOME: opts.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
