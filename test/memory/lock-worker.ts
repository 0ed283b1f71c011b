/**
 * A separate process for the cross-process lock test: `lock-worker.ts <dir> <name> <n> [hold]`.
 * Writes n notes and n read-modify-write increments of counter.txt, each under the dir lock.
 * With `hold`, takes the lock, prints "locked", and keeps it until stdin closes.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../electron/memory/atomic-write.js';
import { createBackupStore } from '../../electron/memory/backups.js';
import { withDirLock } from '../../electron/memory/dir-lock.js';
import { createNoteStore } from '../../electron/memory/note-store.js';

const [dir, name, countText, mode] = process.argv.slice(2) as [string, string, string, string | undefined];

if (mode === 'hold') {
  await withDirLock(dir, async () => {
    process.stdout.write('locked\n');
    await new Promise<void>((resolve) => {
      process.stdin.on('end', resolve);
      process.stdin.resume();
    });
  });
} else {
  const store = createNoteStore({
    scope: 'project',
    dir,
    maxNotes: 100_000,
    maxNoteBytes: 131072,
    backups: createBackupStore(path.join(dir, '..', 'home'), Date.now),
    now: Date.now,
    lockTimeoutMs: 60_000,
  });
  const counter = path.join(dir, 'counter.txt');
  for (let i = 0; i < Number(countText); i++) {
    await store.write({
      id: `${name}-${i}`,
      summary: `note ${i} of ${name}`,
      tags: [name],
      createdAt: i,
      updatedAt: i,
      body: `${name} ${i}\n`.repeat(20),
    });
    await store.withLock(async () => {
      const n = Number(await fs.readFile(counter, 'utf8').catch(() => '0'));
      await new Promise((r) => setImmediate(r)); // widen the race window
      await writeFileAtomic(counter, String(n + 1));
    });
  }
}
