import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackupStore } from '../../electron/memory/backups.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { manualClock, note, tempDir, writeNoteFile } from './helpers.js';

/**
 * settle(): what a warm answer waits for (docs/agents.md "Warm answers"). Edits the system has
 * reported are applied at once, not after the watcher's debounce.
 */
describe('note store settle', () => {
  it('applies edits made on disk before the debounce would', async () => {
    const base = await tempDir('settle');
    const dir = path.join(base, 'MEMORY');
    const clock = manualClock();
    await writeNoteFile(dir, note('first', { summary: 'First note about kayaks' }));
    const store = createNoteStore({
      scope: 'project',
      dir,
      maxNotes: 100,
      maxNoteBytes: 100_000,
      backups: createBackupStore(path.join(base, 'home'), clock.now),
      now: clock.now,
      // Far longer than the test: only settle() can apply the edits below.
      debounceMs: 600_000,
    });
    const changes: string[][] = [];
    store.onChange((c) => changes.push([...c.changed, ...c.removed].sort()));
    await store.load();
    store.watch();
    try {
      changes.length = 0;
      await writeNoteFile(dir, note('second', { summary: 'Second note about canoes' }));
      await fs.writeFile(
        path.join(dir, 'first.md'),
        (await fs.readFile(path.join(dir, 'first.md'), 'utf8')).replace('kayaks', 'rafts'),
      );
      await fs.rm(path.join(dir, 'first.md'));
      await writeNoteFile(dir, note('third', { summary: 'Third note' }));
      // inotify queued the events as the writes happened; one turn of the loop reads them.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await store.settle();
      expect(store.get('second')?.summary).toBe('Second note about canoes');
      expect(store.get('third')?.summary).toBe('Third note');
      expect(store.get('first')).toBeUndefined();
      expect(changes).toEqual([['first', 'second', 'third']]);
    } finally {
      await store.close();
    }
  });
});
