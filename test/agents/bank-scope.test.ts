import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectLabel, retainTarget } from '../../electron/agents/retain/bank-scope.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: string;
beforeAll(async () => {
  tmp = await tempDir('bank');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

describe('bank scope', () => {
  it('label: lower-cased basename of the git root, of the main worktree for linked worktrees', async () => {
    const main = path.join(tmp, 'General Repo');
    await fs.mkdir(path.join(main, 'src', 'deep'), { recursive: true });
    git(main, 'init', '-q');
    await fs.writeFile(path.join(main, 'a.txt'), 'a');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'init');
    expect(await projectLabel(path.join(main, 'src', 'deep'))).toBe('general-repo');

    const linked = path.join(tmp, 'Feature-Worktree');
    git(main, 'worktree', 'add', '-q', linked);
    expect(await projectLabel(linked)).toBe('general-repo');
  });

  it('label: a bare repository with a worktree uses the bare directory name without .git', async () => {
    const bare = path.join(tmp, 'Shared.git');
    git(tmp, 'init', '-q', '--bare', bare);
    const seed = path.join(tmp, 'seed');
    git(tmp, 'clone', '-q', bare, seed);
    await fs.writeFile(path.join(seed, 'x'), 'x');
    git(seed, 'add', '.');
    git(seed, 'commit', '-q', '-m', 'x');
    git(seed, 'push', '-q', 'origin', 'HEAD');
    const wt = path.join(tmp, 'wt-from-bare');
    git(bare, 'worktree', 'add', '-q', wt);
    expect(await projectLabel(wt)).toBe('shared');
  });

  it('label: outside git it is the directory basename', async () => {
    const plain = path.join(tmp, 'Plain Dir');
    await fs.mkdir(plain);
    // A GIT_DIR-free plain directory under /tmp is not inside a repository.
    expect(await projectLabel(plain)).toBe('plain-dir');
  });

  it('label: the same answer as asking git itself (found from the files, without running git)', async () => {
    const root = path.join(tmp, 'Cross Check');
    const sub = path.join(tmp, 'Sub Lib');
    for (const r of [root, sub]) {
      await fs.mkdir(path.join(r, 'src'), { recursive: true });
      git(r, 'init', '-q');
      await fs.writeFile(path.join(r, 'src', 'a.txt'), r);
      git(r, 'add', '.');
      git(r, 'commit', '-q', '-m', 'init');
    }
    git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'vendor/sub-lib');
    const linked = path.join(tmp, 'cross-linked');
    git(root, 'worktree', 'add', '-q', linked);
    const fromGit = (dir: string): string => {
      const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
        cwd: dir,
        encoding: 'utf8',
      }).trim();
      const name = path.basename(common);
      return (name === '.git' ? path.basename(path.dirname(common)) : name.replace(/\.git$/i, ''))
        .toLowerCase()
        .replace(/[\s,]+/g, '-');
    };
    const dirs = [
      path.join(root, 'src'),
      path.join(root, '.git'),
      path.join(root, 'vendor', 'sub-lib', 'src'),
      linked,
      path.join(tmp, 'Shared.git'),
      path.join(tmp, 'wt-from-bare'),
    ];
    for (const dir of dirs) expect(await projectLabel(dir), dir).toBe(fromGit(dir));
    expect(await projectLabel(path.join(root, 'vendor', 'sub-lib'))).toBe('sub-lib');
  });

  it('targets: global → user; per-project → project; per-project-tagged → user + tag', async () => {
    const plain = path.join(tmp, 'Proj');
    await fs.mkdir(plain);
    expect(await retainTarget('global', { projectRoot: plain, cwd: plain })).toEqual({
      scope: 'user',
      tags: [],
      warnings: [],
    });
    expect(await retainTarget('per-project', { projectRoot: plain, cwd: plain })).toEqual({
      scope: 'project',
      tags: [],
      warnings: [],
    });
    expect(await retainTarget('per-project-tagged', { projectRoot: plain, cwd: plain })).toEqual({
      scope: 'user',
      tags: ['project:proj'],
      warnings: [],
    });
    const none = await retainTarget('per-project', { projectRoot: null, cwd: plain });
    expect(none.scope).toBe('user');
    expect(none.tags).toEqual(['project:proj']);
    expect(none.warnings[0]?.code).toBe('no_project');
  });
});
