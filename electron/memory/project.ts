import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from '../../shared/zod-mini.js';
import { AppError } from '../../shared/errors.js';
import type { Warning } from '../../shared/api/notes.js';
import { writeFileAtomic } from './atomic-write.js';
import type { ProjectInfo } from './types.js';
import { missingOr, unlessMissing } from './unexpected-error.js';

/**
 * Project identity and layout: `<root>/.oharness/project.json` holds `{"id": …}` — a git
 * repository's root commit hash, else a random id — so sessions, sync state and recall counts stay
 * attached when the folder is renamed. Registration also creates empty MEMORY/ (or memory.dir)
 * and ARTIFACTS/.
 */

export const ProjectFileSchema = z.looseObject({ id: z.string().check(z.minLength(1)) });

export function projectFilePath(root: string): string {
  return path.join(root, '.oharness', 'project.json');
}

export const DEFAULT_MEMORY_DIR = 'MEMORY';

export type ProjectNotesDir =
  { ok: true; dir: string; warning?: Warning } | { ok: false; dir: string; warning: Warning };

/**
 * The project's notes directory: `memory.dir` relative to the project root, and inside it. An
 * absolute or escaping `memory.dir` is refused (warning naming the key) and `MEMORY` used instead;
 * a directory reached through a symbolic link (`MEMORY -> ~/elsewhere`) is refused outright, so
 * notes are never written outside the project.
 */
export async function resolveProjectNotesDir(root: string, configured: string): Promise<ProjectNotesDir> {
  let warning: Warning | undefined;
  let rel = configured;
  const inside = path.relative(root, path.resolve(root, configured));
  if (path.isAbsolute(configured) || inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    warning = {
      code: 'invalid_config',
      message: `memory.dir "${configured}" is not a directory inside the project (${root}); the project's notes stay in ${DEFAULT_MEMORY_DIR}/`,
      scope: 'project',
    };
    rel = DEFAULT_MEMORY_DIR;
  }
  const dir = path.resolve(root, rel);
  // Every existing component below the root must be a real directory, not a link.
  let at = root;
  for (const part of path.relative(root, dir).split(path.sep)) {
    at = path.join(at, part);
    const stat = await fs.lstat(at).catch(missingOr(null, 'project dir: lstat'));
    if (!stat) break;
    if (stat.isSymbolicLink()) {
      const target = await fs.readlink(at).catch(() => '?'); // only names the target in the warning
      return {
        ok: false,
        dir,
        warning: {
          code: 'project_dir_refused',
          message: `${at} is a symbolic link (to ${target}); project notes are never read or written through a link (memory.dir "${rel}"). Replace it with a real directory inside the project`,
          scope: 'project',
          path: at,
        },
      };
    }
  }
  return warning ? { ok: true, dir, warning } : { ok: true, dir };
}

export async function readProjectId(root: string, warnings?: Warning[]): Promise<string | null> {
  const file = projectFilePath(root);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    unlessMissing(err, 'project: read project.json'); // not registered yet
    return null;
  }
  try {
    const parsed = ProjectFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.id;
    warnings?.push({
      code: 'invalid_project_file',
      message: `${file} has no "id"; the project counts as unregistered`,
      path: file,
    });
  } catch (err) {
    warnings?.push({
      code: 'invalid_project_file',
      message: `${file} is not valid JSON (${(err as Error).message}); the project counts as unregistered`,
      path: file,
    });
  }
  return null;
}

/** The root commit of the git repository at `root` (the oldest, when there are several), or null. */
export async function gitRootCommit(root: string): Promise<string | null> {
  try {
    // Loaded here, not with the module: every command opens a project, few register one (~3 ms of
    // child_process, net and dgram at each cold start).
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { stdout } = await promisify(execFile)('git', ['rev-list', '--max-parents=0', 'HEAD'], {
      cwd: root,
      timeout: 10_000,
    });
    const commits = stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
    return commits.length > 0 ? commits[commits.length - 1]! : null;
  } catch {
    return null; // not a git repository, no commit yet, or no git installed
  }
}

export async function registerProject(
  root: string,
  memoryDir: string,
): Promise<ProjectInfo & { id: string }> {
  const file = projectFilePath(root);
  const stat = await fs.stat(root).catch(missingOr(null, 'project: stat root'));
  if (!stat?.isDirectory())
    throw new AppError('invalid_input', `the project directory ${root} does not exist`);
  let id = await readProjectId(root);
  if (id === null) {
    try {
      await fs.access(file);
      // It exists but is unreadable or malformed: never overwrite what someone wrote.
      throw new AppError(
        'refused',
        `${file} exists but has no valid "id"; fix or remove it, then run project init again`,
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
    }
    id = (await gitRootCommit(root)) ?? randomBytes(16).toString('hex');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify({ id }, null, 2) + '\n');
  }
  const artifactsDir = path.join(root, 'ARTIFACTS');
  await fs.mkdir(memoryDir, { recursive: true });
  await fs.mkdir(artifactsDir, { recursive: true });
  return { root, id, memoryDir, artifactsDir };
}
