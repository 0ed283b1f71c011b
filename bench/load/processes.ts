/** Child processes as the benches time and start them: one place for /usr/bin/time and for a server's address line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface TimedRun {
  /** From spawning to the child's stdio closing, in ms. */
  wall: number;
  /** The child's user + system time, in ms (from /usr/bin/time). */
  cpu: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One process under /usr/bin/time, `input` on its stdin. Rejects only when no timing came back. */
export function timedProcess(
  argv: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', ...argv], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.stdin.on('error', () => {}); // a process that never reads stdin (node -e 0, cat) may exit first
    child.stdin.end(opts.input ?? '');
    child.on('close', (code) => {
      const wall = performance.now() - t0;
      const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      if (!m) return reject(new Error(`no timing from ${argv.join(' ')} (exit ${code}): ${stderr}`));
      resolve({
        wall,
        cpu: (Number(m[1]) + Number(m[2])) * 1000,
        code,
        stdout,
        stderr: stderr.slice(0, m.index),
      });
    });
  });
}

/**
 * `node ...nodeArgv` started as a server that prints its address (`http://…`) on a line of its own:
 * the child and that address, once printed.
 */
export function startPrintingServer(
  nodeArgv: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, nodeArgv, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^(http:\S+)$/m.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`${nodeArgv.join(' ')} exited (${code})`)));
  });
}
