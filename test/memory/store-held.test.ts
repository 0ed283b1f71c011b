import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackupStore } from '../../electron/memory/backups.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { manualClock, note, tempDir, writeNoteFile } from './helpers.js';

async function store(maxNotes = 5000) {
  const base = await tempDir();
  const dir = path.join(base, 'MEMORY');
  await fs.mkdir(dir);
  const clock = manualClock();
  const s = createNoteStore({
    scope: 'project',
    dir,
    maxNotes,
    maxNoteBytes: 1000,
    backups: createBackupStore(path.join(base, 'home'), clock.now),
    now: clock.now,
  });
  return { base, dir, s };
}

describe('note store: every file present but not loaded is held, with its reason', () => {
  it('malformed, too large, invalid name, case twin, link: each listed once; loaded notes are not', async () => {
    const { base, dir, s } = await store();
    await writeNoteFile(dir, note('fine'));
    await fs.writeFile(path.join(dir, 'broken.md'), '---\n{"id":"broken",\n---\nbody');
    await writeNoteFile(dir, note('big', { body: 'x'.repeat(2000) }));
    await writeNoteFile(dir, note('bad name'), 'bad name!.md');
    await writeNoteFile(dir, note('Twin'));
    await writeNoteFile(dir, note('twin'));
    const outside = path.join(base, 'outside.txt');
    await fs.writeFile(outside, '---\n{"id":"linked","summary":"s"}\n---\nsecret');
    await fs.symlink(outside, path.join(dir, 'linked.md'));
    await s.load();
    expect(
      s
        .list()
        .map((n) => n.id)
        .sort(),
    ).toEqual(['Twin', 'fine']);
    expect(s.held().map((h) => [h.id, h.reason])).toEqual([
      ['bad name!', 'invalid_id'],
      ['big', 'too_large'],
      ['broken', 'unreadable'],
      ['linked', 'symlink'],
      ['twin', 'case_twin'],
    ]);
    for (const h of s.held()) expect(h.message).toContain(h.path);
    // The link is never read: not by load, not by readRaw.
    expect(await s.readRaw('linked')).toBeNull();
    await s.close();
  });

  it('skipped by memory.maxNotes: the least recently modified are held', async () => {
    const { dir, s } = await store(2);
    const t = Date.now() / 1000;
    for (const [i, id] of ['a', 'b', 'c'].entries()) {
      const file = await writeNoteFile(dir, note(id));
      await fs.utimes(file, t + i, t + i);
    }
    await s.load();
    expect(s.held().map((h) => [h.id, h.reason])).toEqual([['a', 'over_note_limit']]);
    await s.close();
  });

  it('fixing the file releases it; writing over a held malformed file by the store is refused', async () => {
    const { dir, s } = await store();
    await fs.writeFile(path.join(dir, 'n.md'), '---\n{"id":"n",\n---\nbody');
    await s.load();
    expect(s.held().map((h) => h.id)).toEqual(['n']);
    await expect(s.write(note('n'), {})).rejects.toThrow(/cannot be read/);
    await writeNoteFile(dir, note('n'));
    await s.load();
    expect(s.held()).toEqual([]);
    expect(s.get('n')).toBeDefined();
    await s.close();
  });
});
