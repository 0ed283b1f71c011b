import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What `git merge-file -p --diff3` made of three texts: its output and how many conflicts it saw. */
export interface GitMerge {
  text: string;
  conflicts: number;
}

/**
 * Runs the real `git merge-file -p --diff3` on three texts written to files in `dir`, with the same
 * marker labels as ours. git exits with the number of conflicts (0 = clean); anything else is an error.
 */
export function gitMergeFile(dir: string, base: string, local: string, cloud: string): GitMerge {
  const files = {
    local: path.join(dir, 'local'),
    base: path.join(dir, 'base'),
    cloud: path.join(dir, 'cloud'),
  };
  fs.writeFileSync(files.local, local);
  fs.writeFileSync(files.base, base);
  fs.writeFileSync(files.cloud, cloud);
  const run = spawnSync(
    'git',
    [
      'merge-file',
      '-p',
      '--diff3',
      '-L',
      'this computer',
      '-L',
      'last synced',
      '-L',
      'cloud',
      files.local,
      files.base,
      files.cloud,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.error) throw run.error;
  if (run.status === null || run.status < 0 || run.status > 127) {
    throw new Error(`git merge-file failed (status ${String(run.status)}): ${run.stderr}`);
  }
  return { text: run.stdout, conflicts: run.status };
}
