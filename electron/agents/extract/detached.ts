import { spawn } from 'node:child_process';

export interface DetachedExtraction {
  home: string;
  projectRoot: string | null;
  harness: string;
  sessionId: string;
  transcriptPath: string;
  trigger: 'stop' | 'compact';
}

/** Starts extraction in a process of its own. */
export type StartExtraction = (job: DetachedExtraction) => void | Promise<void>;

/**
 * Runs `memdesk extract` for a hook as a detached process that outlives the hook, so the model call
 * is never on the agent's critical path (the hook answers at once). The same memdesk this process
 * runs as (node, its flags such as a TypeScript loader, and its entry script) is started again.
 */
export const startDetachedExtraction: StartExtraction = (job) => {
  const entry = process.argv[1];
  if (!entry) throw new Error('cannot tell which memdesk to start for extraction');
  const args = [
    ...process.execArgv,
    entry,
    '--home',
    job.home,
    ...(job.projectRoot ? ['--project', job.projectRoot] : []),
    'extract',
    '--transcript',
    job.transcriptPath,
    '--trigger',
    job.trigger,
    '--session',
    job.sessionId,
    '--harness',
    job.harness,
  ];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', windowsHide: true });
  child.on('error', () => {});
  child.unref();
};
