import { memdeskInProcess, type CliRun } from '../support/memdesk-cli.js';

export type { CliRun };

/** The CLI's code in this process, in `cwd` (spawning costs seconds on a loaded machine). */
export function cli(
  args: string[],
  cwd: string,
  /** Sees stderr as it comes (e.g. the sign-in URL `memdesk login` prints and waits on). */
  onStderr?: (text: string) => void,
): Promise<CliRun> {
  return memdeskInProcess(args, { cwd, onStderr });
}
