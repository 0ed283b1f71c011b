import type { Readable, Writable } from 'node:stream';
import type { OpenProject, ProcessServices } from '../../app/open-project.js';

/* Where a warm answer is served from and what it runs: shared by warm-answer (the server) and
   warm-config (which reopens the project after a config edit), so neither imports the other. */

export interface WarmPlace {
  home: string;
  projectRoot: string;
  /** The environment the project was opened with (config overrides). */
  env: Record<string, string | undefined>;
  /** The process's own environment (where advertisements go); the same as `env` for the CLI. */
  processEnv: Record<string, string | undefined>;
  /**
   * The CLI's runCli, passed in by whoever serves (run.ts, the bridge, the app) so that this file
   * does not import run.ts, which loads this one for `memdesk mcp`.
   */
  run: WarmRun;
  /** The process's services (its composition root): after a config edit the project is opened again from them. */
  services: ProcessServices;
}

/** What a warm answer runs: the CLI over the open project's handlers (runCli fits). */
export type WarmRun = (env: {
  argv: string[];
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  openHandlers: WarmProject['handlers'];
}) => Promise<number>;

/** What is answered from: an open project's context and handler table. */
export type WarmProject = Pick<OpenProject, 'ctx' | 'handlers'>;
