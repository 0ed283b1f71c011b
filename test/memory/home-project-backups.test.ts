import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import { fixture, note, snapshot, tempDir, writeNoteFile } from './helpers.js';
import { rejection } from './rejection.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  ).trim();
}

describe('projects', () => {
  it('a git repository is identified by its root commit; registration creates empty MEMORY/ and ARTIFACTS/', async () => {
    const fx = await fixture();
    git(fx.root, 'init', '-q');
    git(fx.root, 'commit', '-q', '--allow-empty', '-m', 'first');
    const rootCommit = git(fx.root, 'rev-parse', 'HEAD');
    git(fx.root, 'commit', '-q', '--allow-empty', '-m', 'second');
    const { core } = await fx.open();
    expect(core.project!.id).toBeNull();
    const info = await core.registerProject();
    expect(info.id).toBe(rootCommit);
    expect(JSON.parse(await fs.readFile(path.join(fx.root, '.oharness', 'project.json'), 'utf8'))).toEqual({
      id: rootCommit,
    });
    expect(await fs.readdir(path.join(fx.root, 'MEMORY'))).toEqual([]);
    expect(await fs.readdir(path.join(fx.root, 'ARTIFACTS'))).toEqual([]);
    // Stable: registering again (or after more commits) keeps the id.
    expect((await core.registerProject()).id).toBe(rootCommit);
    await core.close();
  });

  it('a plain directory gets a random id that stays the same when the folder is renamed', async () => {
    const fx = await fixture();
    const { core } = await fx.open();
    const { id } = await core.registerProject();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await core.close();
    const moved = fx.root + '-renamed';
    await fs.rename(fx.root, moved);
    const again = await createMemoryCore({ home: fx.home, projectRoot: moved, env: {} });
    expect(again.project!.id).toBe(id);
    expect((await again.registerProject()).id).toBe(id);
    await again.close();
  });

  it('refuses to overwrite a project.json without a valid id', async () => {
    const fx = await fixture();
    const file = path.join(fx.root, '.oharness', 'project.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"name": "mine"}');
    const { core } = await fx.open();
    const err = await rejection(core.registerProject());
    expect(err.code).toBe('refused');
    expect(err.message).toMatch(/exists but has no valid "id"/);
    expect(await fs.readFile(file, 'utf8')).toBe('{"name": "mine"}');
    expect(core.warnings().some((w) => w.code === 'invalid_project_file')).toBe(true);
    await core.close();
  });
});

describe('an unusable user directory', () => {
  it('when memory/user cannot be created, project notes work and a warning says what is unavailable', async () => {
    const fx = await fixture();
    await fs.mkdir(path.join(fx.home), { recursive: true });
    // A file where the directory should be: blocks creation even for root (chmod would not).
    await fs.writeFile(path.join(fx.home, 'memory'), 'not a directory');
    await writeNoteFile(fx.memoryDir, note('project-note'));
    const { core, notes } = await fx.open();
    expect(core.store('user')).toBeNull();
    const w = core.warnings().find((x) => x.code === 'user_dir_unavailable')!;
    expect(w.message).toMatch(
      /your own notes, backups and recall counts are unavailable; project notes still work/,
    );
    expect(core.store('project')!.get('project-note')).toBeDefined();
    await notes.remember({ summary: 'still works', body: '' });
    const err = await rejection(notes.remember({ summary: 'me', type: 'user', body: '' }));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/your own notes directory is unavailable/);
    expect(await fs.readFile(path.join(fx.home, 'memory'), 'utf8')).toBe('not a directory');
    await core.close();
  });

  it('when the home itself is a file, project notes load; forget is refused because nothing can be backed up', async () => {
    const base = await tempDir();
    const home = path.join(base, 'home');
    const root = path.join(base, 'project');
    await fs.writeFile(home, 'a file');
    await writeNoteFile(path.join(root, 'MEMORY'), note('precious'));
    const core = await createMemoryCore({ home, projectRoot: root, env: {} });
    const notes = createNotesService(core);
    expect(
      core
        .store('project')!
        .list()
        .map((n) => n.id),
    ).toEqual(['precious']);
    const err = await rejection(notes.forget({ id: 'precious' }));
    expect(err.message).toMatch(/cannot write a backup/);
    expect(await fs.readdir(path.join(root, 'MEMORY'))).toEqual(['precious.md']);
    await core.close();
  });
});

describe('backups', () => {
  it('lists the latest 50, newest first, with when and why', async () => {
    const fx = await fixture();
    const { core } = await fx.open();
    for (let i = 0; i < 55; i++) {
      fx.clock.advance(1000);
      await core.user.backups.backup({
        noteId: `n${i}`,
        content: serializeNote(note(`n${i}`)),
        reason: `reason ${i}`,
        originDir: fx.memoryDir,
        scope: 'project',
        summary: `s${i}`,
      });
    }
    const list = await core.user.backups.list();
    expect(list).toHaveLength(50);
    expect(list[0]).toMatchObject({
      noteId: 'n54',
      reason: 'reason 54',
      at: fx.clock.now(),
      originDir: fx.memoryDir,
      scope: 'project',
      summary: 's54',
    });
    expect(list[49]!.noteId).toBe('n5');
    await core.close();
  });

  it('restores to the directory it came from, backing up the newer version it replaces', async () => {
    const fx = await fixture();
    const { core, notes } = await fx.open();
    const r = await notes.remember({ id: 'doc', summary: 'v1', body: 'first' });
    const v1 = await fs.readFile(r.note.path, 'utf8');
    const { backupId } = await notes.forget({ id: 'doc' });
    // Restoring a deleted note: nothing to replace.
    expect(await core.restoreBackup(backupId)).toEqual({
      id: 'doc',
      scope: 'project',
      dir: fx.memoryDir,
      replacedBackupId: null,
    });
    expect(await fs.readFile(r.note.path, 'utf8')).toBe(v1);
    // Restoring over a newer version backs that one up first.
    fx.clock.advance(1000);
    await notes.edit({ id: 'doc', summary: 'v2', body: 'second' });
    const v2 = await fs.readFile(r.note.path, 'utf8');
    const restored = await core.restoreBackup(backupId);
    expect(restored.replacedBackupId).not.toBeNull();
    expect(await fs.readFile(r.note.path, 'utf8')).toBe(v1);
    expect(core.store('project')!.get('doc')!.summary).toBe('v1');
    const replaced = await core.user.backups.get(restored.replacedBackupId!);
    expect(replaced.content).toBe(v2);
    expect(replaced.entry.reason).toBe(`replaced by restoring backup ${backupId}`);
    await core.close();
  });

  it('older reason-less backups (a bare .md) are listed and restorable into the scope of their type', async () => {
    const fx = await fixture();
    const backupsDir = path.join(fx.home, 'memory-backups');
    await fs.mkdir(backupsDir, { recursive: true });
    const old = serializeNote(note('old-pref', { type: 'user', summary: 'An old preference' }));
    await fs.writeFile(path.join(backupsDir, 'old-pref-1700000000000.md'), old);
    const t = new Date(1_700_000_000_000);
    await fs.utimes(path.join(backupsDir, 'old-pref-1700000000000.md'), t, t);
    const { core } = await fx.open();
    const [entry] = await core.user.backups.list();
    expect(entry).toMatchObject({
      id: 'old-pref-1700000000000',
      noteId: 'old-pref',
      reason: null,
      originDir: null,
      scope: null,
      summary: 'An old preference',
      at: 1_700_000_000_000,
    });
    const out = await core.restoreBackup(entry!.id);
    expect(out).toEqual({ id: 'old-pref', scope: 'user', dir: fx.userDir, replacedBackupId: null });
    expect(await fs.readFile(path.join(fx.userDir, 'old-pref.md'), 'utf8')).toBe(old);
    await core.close();
  });

  it('refuses backup ids that are paths, and unknown ids', async () => {
    const fx = await fixture();
    const { core } = await fx.open();
    const before = await snapshot(fx.home);
    expect((await rejection(core.restoreBackup('../../etc/passwd'))).code).toBe('invalid_input');
    expect((await rejection(core.restoreBackup('nope'))).code).toBe('not_found');
    expect(await snapshot(fx.home)).toEqual(before);
    await core.close();
  });

  it('core.backupNote copies the current file with the reason (for sync, cleanup, agents)', async () => {
    const fx = await fixture();
    await writeNoteFile(fx.userDir, note('u1'));
    const { core } = await fx.open();
    const entry = await core.backupNote('user', 'u1', 'sync: pulled a newer version');
    expect(entry).toMatchObject({
      noteId: 'u1',
      scope: 'user',
      originDir: fx.userDir,
      reason: 'sync: pulled a newer version',
    });
    expect(await core.backupNote('user', 'missing', 'x')).toBeNull();
    await core.close();
  });
});

describe('usage counts', () => {
  it('live in memory-usage/, outside the notes, and never change a note', async () => {
    const fx = await fixture();
    const { core, notes } = await fx.open();
    const r = await notes.remember({ id: 'used', summary: 'used a lot', body: '' });
    const before = await snapshot(fx.memoryDir);
    fx.clock.advance(5000);
    await core.usage.record([{ scope: 'project', id: 'used' }]);
    await core.usage.record([{ scope: 'project', id: 'used' }]);
    expect(core.usage.get('project', 'used')).toEqual({ count: 2, lastRecalledAt: fx.clock.now() });
    expect(await snapshot(fx.memoryDir)).toEqual(before);
    const files = await fs.readdir(path.join(fx.home, 'memory-usage'));
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(1);
    await core.close();
    const { core: again } = await fx.open();
    expect(again.usage.get('project', r.note.id).count).toBe(2);
    await again.close();
  });
});
