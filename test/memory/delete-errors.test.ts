import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackupStore } from '../../electron/memory/backups.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { noteReadError, readFailureCause } from '../../electron/memory/read-failure.js';
import { manualClock, note, tempDir } from './helpers.js';
import { rejection } from './rejection.js';

async function makeStore() {
  const base = await tempDir('delete-errors');
  const dir = path.join(base, 'MEMORY');
  await fs.mkdir(dir);
  const clock = manualClock();
  const store = createNoteStore({
    scope: 'project',
    dir,
    maxNotes: 100,
    maxNoteBytes: 131072,
    backups: createBackupStore(path.join(base, 'home'), clock.now),
    now: clock.now,
  });
  return { dir, store };
}

/** An error as Node's fs raises it (errno code set). */
function fsError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated by the test`), { code });
}

describe('note store: delete says why a note could not be read', () => {
  it('not_found only when the file is not there', async () => {
    const { dir, store } = await makeStore();
    const err = await rejection(store.delete('nobody', { backupReason: 'forget' }));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain(dir);
  });

  it('a file that cannot be read (a directory named like a note) is an io_error, left in place', async () => {
    const { dir, store } = await makeStore();
    await fs.mkdir(path.join(dir, 'folder.md'));
    const err = await rejection(store.delete('folder', { backupReason: 'forget' }));
    expect(err.code).toBe('io_error');
    expect(err.details).toEqual({ cause: 'io' });
    expect(err.message).toMatch(/cannot read the note "folder"/);
    expect((await fs.stat(path.join(dir, 'folder.md'))).isDirectory()).toBe(true);
  });

  it('a note that turned malformed since it was read is refused as malformed, not as missing or changed', async () => {
    const { dir, store } = await makeStore();
    const written = await store.write(note('turned'));
    await fs.writeFile(path.join(dir, 'turned.md'), '---\n{"id": "turned", summary: broken}\n---\nbody');
    const err = await rejection(
      store.delete('turned', { backupReason: 'forget', expectedHash: written.hash }),
    );
    expect(err.code).toBe('conflict');
    expect(err.details).toEqual({ cause: 'malformed' });
    expect(err.message).toMatch(/no longer a valid note \(.*JSON/);
    expect(await fs.readFile(path.join(dir, 'turned.md'), 'utf8')).toContain('summary: broken');
  });

  it('maps each fs error code to its cause (permission denied is named, not reported as missing)', () => {
    expect(readFailureCause(fsError('ENOENT'))).toBe('missing');
    expect(readFailureCause(fsError('ENOTDIR'))).toBe('missing');
    expect(readFailureCause(fsError('EACCES'))).toBe('permission');
    expect(readFailureCause(fsError('EPERM'))).toBe('permission');
    expect(readFailureCause(fsError('EIO'))).toBe('io');
    const denied = noteReadError(fsError('EACCES'), 'n1', '/notes/n1.md', '/notes');
    expect(denied.code).toBe('io_error');
    expect(denied.details).toEqual({ cause: 'permission' });
    expect(denied.message).toBe('cannot read the note "n1" (/notes/n1.md): permission denied');
  });
});
