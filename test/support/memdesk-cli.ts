import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { runCli } from '../../electron/transports/cli/run.js';

/** The CLI's entry point, run from its TypeScript sources (no build needed). */
export const CLI_SOURCE_ENTRY = new URL('../../electron/transports/cli/memdesk.ts', import.meta.url).pathname;
/** `node --import <this> file.ts` runs TypeScript in child processes without a build. */
export const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliPlace {
  /** The working directory, and HOME unless `env` names another. */
  cwd: string;
  stdin?: string;
  /** More environment: a child gets PATH and HOME, nothing else of this process's. */
  env?: Record<string, string>;
}

/** A command (`argv[0]` and its arguments) in a child process: its exit code and what it printed. */
export function runProcess(argv: readonly string[], place: CliPlace): Promise<CliRun> {
  const [command, ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(command!, args, {
      cwd: place.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: place.cwd, ...place.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(place.stdin ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The real CLI in a child process, from its sources: the entry point, argv and stdio as a person
 * or a harness meets them. `asUser` goes before node (`setpriv …` to run it as another user).
 */
export function memdeskChild(
  args: readonly string[],
  place: CliPlace & { asUser?: readonly string[] },
): Promise<CliRun> {
  return runProcess(
    [...(place.asUser ?? []), process.execPath, '--import', TSX_LOADER, CLI_SOURCE_ENTRY, ...args],
    place,
  );
}

/**
 * The same CLI code in this process (streams instead of a child): spawning costs seconds per call
 * on a loaded machine, so most of a command matrix runs here.
 */
export async function memdeskInProcess(
  args: string[],
  place: CliPlace & {
    /** Sees stderr as it comes (e.g. the sign-in URL `memdesk login` prints and waits on). */
    onStderr?: (text: string) => void;
  },
): Promise<CliRun> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => {
    err += d.toString();
    place.onStderr?.(err);
  });
  stdin.end(place.stdin ?? '');
  const code = await runCli({
    argv: args,
    stdin,
    stdout,
    stderr,
    env: { HOME: place.cwd, ...place.env },
    cwd: place.cwd,
  });
  return { code, stdout: out, stderr: err };
}
