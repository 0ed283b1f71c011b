import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Spawns `node --import tsx <script> args` in the repo; `waitFor` resolves with the first stdout line matching. */
export function spawnTs(
  script: string,
  args: string[],
  env: Record<string, string>,
): {
  child: ChildProcess;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffer = '';
  let err = '';
  const seen: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      seen.push(line);
      for (const w of [...waiters]) {
        if (w.pattern.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const waitFor = (pattern: RegExp, timeoutMs = 20_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const hit = seen.find((l) => pattern.test(l));
      if (hit) return resolve(hit);
      const timer = setTimeout(
        () => reject(new Error(`child did not print ${pattern} in time; stderr: ${err}`)),
        timeoutMs,
      );
      child.once('exit', (code) =>
        reject(new Error(`child exited (${code}) before printing ${pattern}; stderr: ${err}`)),
      );
      waiters.push({ pattern, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  return { child, waitFor, stderr: () => err };
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
