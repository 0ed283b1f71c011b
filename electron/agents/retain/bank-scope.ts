import { execFile } from 'node:child_process';
import path from 'node:path';
import type { BankScope } from '../../../shared/api/agents.js';
import type { Warning } from '../../../shared/api/notes.js';
import type { Scope } from '../../../shared/note.js';

/** The config key that sets the default bank scope of retain (docs/agents.md). */
export const RETAIN_SCOPING_KEY = 'memory.retain.scoping';

function git(args: string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (err, stdout) => {
      resolve(err ? null : stdout.trim() || null);
    });
  });
}

/**
 * The lower-cased label of the project a directory belongs to: the basename of the git checkout
 * root — of the MAIN worktree for linked worktrees (the parent of `--git-common-dir`; for a bare
 * repository the common dir itself, without `.git`) — else the directory's own basename. Lower-cased
 * because tags match literally (`…/General` and `…/general` must meet); whitespace and commas become
 * `-` because tags are split at them.
 */
export async function projectLabel(dir: string): Promise<string> {
  // --path-format needs git ≥ 2.31; older versions print the common dir relative to `dir`.
  const commonDir =
    (await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], dir)) ??
    (await git(['rev-parse', '--git-common-dir'], dir).then((p) => (p ? path.resolve(dir, p) : null)));
  let base: string;
  if (commonDir) {
    const name = path.basename(commonDir);
    base = name === '.git' ? path.basename(path.dirname(commonDir)) : name.replace(/\.git$/i, '') || name;
  } else {
    base = path.basename(path.resolve(dir));
  }
  const label = base
    .toLowerCase()
    .replace(/[\s,]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return label || 'root';
}

export interface RetainTarget {
  scope: Scope;
  /** Tags every retained note of this call gets (the `project:<label>` tag). */
  tags: string[];
  warnings: Warning[];
}

/**
 * Maps a bank scope onto a note scope: global → user; per-project → project (the user scope with
 * the project tag, plus a warning, when no project is open); per-project-tagged → user + tag.
 */
export async function retainTarget(
  bankScope: BankScope,
  opts: { projectRoot: string | null; cwd: string },
): Promise<RetainTarget> {
  if (bankScope === 'global') return { scope: 'user', tags: [], warnings: [] };
  const label = await projectLabel(opts.projectRoot ?? opts.cwd);
  if (bankScope === 'per-project') {
    if (opts.projectRoot) return { scope: 'project', tags: [], warnings: [] };
    return {
      scope: 'user',
      tags: [`project:${label}`],
      warnings: [
        {
          code: 'no_project',
          message: `bank scope per-project needs an open project; no project here, so facts go to the user scope tagged project:${label}`,
        },
      ],
    };
  }
  return { scope: 'user', tags: [`project:${label}`], warnings: [] };
}
