import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BankScope } from '../../../shared/api/agents.js';
import type { Warning } from '../../../shared/api/notes.js';
import type { Scope } from '../../../shared/note.js';

/** The config key that sets the default bank scope of retain (docs/agents.md). */
export const RETAIN_SCOPING_KEY = 'memory.retain.scoping';

/**
 * The repository `dir` is in, found the way git discovers it but without running git (a process
 * per hook call cost more than the rest of a label): up from `dir`, the first `.git` directory,
 * `.git` file (`gitdir: …`, linked worktrees and submodules) or bare repository — its directory is
 * `root` — then that git dir's `commondir` file, if any (`commonDir`, where `info/exclude` is too).
 * Null outside a repository.
 */
export function gitCheckout(dir: string): { root: string; commonDir: string } | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const gitDir = gitDirAt(at);
    if (gitDir) {
      const common = readText(path.join(gitDir, 'commondir'));
      return { root: at, commonDir: common ? path.resolve(gitDir, common) : gitDir };
    }
    if (path.dirname(at) === at) return null;
  }
}

/** The git dir that `at` (a checkout root or a bare repository) stands for, or null. */
function gitDirAt(at: string): string | null {
  const dotGit = path.join(at, '.git');
  const st = statSync(dotGit, { throwIfNoEntry: false });
  if (st?.isDirectory() && isGitDir(dotGit)) return dotGit;
  if (st?.isFile()) {
    const target = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
    if (target) return path.resolve(at, target);
  }
  return isGitDir(at) ? at : null;
}

/** What git itself requires of a git dir: HEAD, and objects/ and refs/ directories. */
function isGitDir(d: string): boolean {
  return (
    statSync(path.join(d, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true &&
    statSync(path.join(d, 'objects'), { throwIfNoEntry: false })?.isDirectory() === true &&
    statSync(path.join(d, 'refs'), { throwIfNoEntry: false })?.isDirectory() === true
  );
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * The lower-cased label of the project a directory belongs to: the basename of the git checkout
 * root — of the MAIN worktree for linked worktrees (the parent of the git common dir; for a bare
 * repository the common dir itself, without `.git`) — else the directory's own basename. Lower-cased
 * because tags match literally (`…/General` and `…/general` must meet); whitespace and commas become
 * `-` because tags are split at them.
 */
export async function projectLabel(dir: string): Promise<string> {
  const commonDir = gitCheckout(dir)?.commonDir;
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
