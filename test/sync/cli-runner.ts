import { PassThrough } from 'node:stream';
import { runCli } from '../../electron/transports/cli/run.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI's code in this process (spawning costs seconds on a loaded machine). */
export async function cli(
  args: string[],
  cwd: string,
  /** Sees stderr as it comes (e.g. the sign-in URL `memdesk login` prints and waits on). */
  onStderr?: (text: string) => void,
): Promise<CliRun> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => {
    err += d.toString();
    onStderr?.(err);
  });
  stdin.end('');
  const code = await runCli({ argv: args, stdin, stdout, stderr, env: { HOME: cwd }, cwd });
  return { code, stdout: out, stderr: err };
}
