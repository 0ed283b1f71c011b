import type { runCli } from './run.js';

/** The rest of the CLI, loaded by the bin when no earlier step answered (memdesk.ts). */
export interface LoadedCli {
  runCli: typeof runCli;
  /** After the command, with its exit code: keeps what makes the next start faster (the bundle's code cache). */
  settle(exitCode: number): void;
}

/**
 * Loads run.ts from the sources (tests, tsx). The bundle replaces this file with
 * load-cli-bundled.ts (scripts/build-cli.ts), which runs the CLI's one CommonJS file from V8's code cache.
 */
export async function loadCli(
  _argv: string[],
  _cwd: string,
  _env: Record<string, string | undefined>,
): Promise<LoadedCli> {
  return { runCli: (await import('./run.js')).runCli, settle: () => undefined };
}
