import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_ENTRY = path.join(REPO, 'electron/transports/cli/memdesk.ts');
export const TSX = import.meta.resolve('tsx');

export interface Child {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves once stdout holds a line matching. */
  line(pattern: RegExp): Promise<string>;
  kill9(): Promise<void>;
}

/** `node --import tsx SCRIPT ARGS` as a real child process. */
export function spawnNode(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = REPO,
): Child {
  const child = spawn(process.execPath, ['--import', TSX, script, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => {
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    line: async (pattern) => {
      for (;;) {
        const hit = out.split('\n').find((l) => pattern.test(l));
        if (hit !== undefined) return hit;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`child exited before printing ${pattern}; stderr: ${err}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    kill9: () => killHard(child),
  };
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * Waits until `check` holds, looking again after each of `tries` short pauses — generous, for a
 * loaded machine; nothing is asserted about how long it took.
 */
export async function eventually<T>(
  check: () => Promise<T | null> | T | null,
  what: string,
  tries = 600,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== null && value !== false) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL by pid (a child the MCP SDK spawned, not this test), then waits for its end. */
export async function kill9Pid(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await eventually(() => !isAlive(pid) || null, `process ${pid} ends`);
}
