import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readNoteFile, readNoteFileSync } from '../../electron/memory/note-store/note-file.js';
import { scanNoteDir } from '../../electron/memory/note-store/scan.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { note, tempDir, writeNoteFile } from './helpers.js';

/** What a scan found, with each note's fields as plain data (bodies and links read). */
function plain(outcome: Awaited<ReturnType<typeof scanNoteDir>>): unknown {
  if (!('outcome' in outcome)) return outcome;
  const { files, loaded, warnings, held, mdCount } = outcome.outcome;
  const noteOf = (
    n: { id: string; summary: string; body: string; tags: string[]; updatedAt: number } | null,
  ) => n && { id: n.id, summary: n.summary, body: n.body, tags: n.tags, updatedAt: n.updatedAt };
  return {
    // By name: the asynchronous scan fills its map in the order reads finish.
    files: [...files]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, f]) => [name, f.mtimeMs, f.size, f.held, f.warning, noteOf(f.note)]),
    loaded: [...loaded.keys()],
    warnings,
    held,
    mdCount,
  };
}

describe('scanning a note directory with synchronous calls (one-shot processes)', () => {
  it('finds exactly what the asynchronous scan finds, for good and bad files alike', async () => {
    const dir = await tempDir('scan-sync-io');
    for (let i = 0; i < 30; i++)
      await writeNoteFile(
        dir,
        note(`note-${i}`, { summary: `Note ${i}`, body: `body ${i} ${'x'.repeat(i * 40)}` }),
      );
    await writeNoteFile(dir, note('other-id'), 'mismatch.md'); // frontmatter id differs from the name
    await fs.writeFile(path.join(dir, 'broken.md'), 'no frontmatter here\n');
    await fs.writeFile(path.join(dir, 'Bad Name!.md'), '{}\n');
    await writeNoteFile(dir, note('too-big', { body: 'y'.repeat(5000) })); // over maxNoteBytes below
    await fs.mkdir(path.join(dir, 'folder.md')); // not a regular file: not listed as a note
    await fs.symlink(path.join(dir, 'note-1.md'), path.join(dir, 'link.md'));
    const limits = { scope: 'project' as const, dir, maxNoteBytes: 2000, maxNotes: 1000 };
    const asyncScan = await scanNoteDir(limits, new Map());
    const syncScan = await scanNoteDir({ ...limits, syncIo: true }, new Map());
    expect(plain(syncScan)).toEqual(plain(asyncScan));
    const found = plain(syncScan) as { loaded: string[]; held: Array<{ reason: string }> };
    expect(found.loaded).toContain('note-29.md');
    expect(found.held.map((h) => h.reason).sort()).toEqual(
      expect.arrayContaining(['invalid_id', 'symlink', 'too_large', 'unreadable']),
    );
  });

  it('a file gone since the listing is gone, and one replaced by a link an error, with either kind of calls', async () => {
    const dir = await tempDir('read-note-file');
    await writeNoteFile(dir, note('kept'));
    await fs.symlink(path.join(dir, 'kept.md'), path.join(dir, 'linked.md'));
    const d = { scope: 'project' as const, dir, maxNoteBytes: 2000 };
    for (const read of [readNoteFileSync, readNoteFile]) {
      expect(await read(d, 'missing.md')).toEqual({ gone: true });
      // O_NOFOLLOW: the link is not followed (ELOOP).
      expect(await read(d, 'linked.md')).toEqual({ error: expect.objectContaining({ code: 'ELOOP' }) });
      expect(await read(d, 'kept.md')).toMatchObject({ entry: { name: 'kept.md', held: null } });
    }
  });

  it("syncIo 'first-load' (memdesk mcp): the first load reads synchronously, later rescans with promises", async () => {
    const dir = await tempDir('scan-first-load');
    for (let i = 0; i < 300; i++) await writeNoteFile(dir, note(`note-${i}`, { body: `body ${i}` }));
    const store = createNoteStore({
      scope: 'project',
      dir,
      maxNotes: 1000,
      maxNoteBytes: 4000,
      backups: null,
      now: Date.now,
      syncIo: 'first-load',
    });
    // Watched, not replaced: the calls go through to the filesystem.
    const opens = vi.spyOn(fs, 'open');
    const stats = vi.spyOn(fs, 'stat');
    try {
      await store.load();
      expect(store.list()).toHaveLength(300);
      expect(opens).not.toHaveBeenCalled();
      expect(stats).not.toHaveBeenCalled();
      // Every file changed on disk: the rescan stats and reads them through promises (the event
      // loop stays free for other requests meanwhile).
      for (let i = 0; i < 300; i++) await writeNoteFile(dir, note(`note-${i}`, { body: `changed ${i}` }));
      opens.mockClear();
      stats.mockClear();
      await store.load();
      expect(store.list().map((n) => n.body)).toContain('changed 7');
      expect(opens).toHaveBeenCalledTimes(300);
      expect(stats).toHaveBeenCalledTimes(300);
    } finally {
      opens.mockRestore();
      stats.mockRestore();
      await store.close();
    }
  });

  it('a watched core opened with syncFirstLoad (memdesk mcp) reads its notes synchronously; without it (the app), through promises', async () => {
    const base = await tempDir('core-first-load');
    const home = path.join(base, 'home');
    const root = path.join(base, 'project');
    const dirs = [path.join(root, 'MEMORY'), path.join(home, 'memory', 'user')];
    for (const dir of dirs) {
      await fs.mkdir(dir, { recursive: true });
      for (let i = 0; i < 20; i++) await writeNoteFile(dir, note(`note-${i}`, { body: `body ${i}` }));
    }
    const opens = vi.spyOn(fs, 'open');
    const stats = vi.spyOn(fs, 'stat');
    /** Promise opens and stats of note files while the core opened. */
    const noteCallsOpening = async (syncFirstLoad: boolean) => {
      opens.mockClear();
      stats.mockClear();
      const core = await createMemoryCore({ home, projectRoot: root, env: {}, watch: true, syncFirstLoad });
      const inNotes = (calls: unknown[][]) =>
        calls.filter(([p]) => dirs.some((dir) => String(p).startsWith(dir + path.sep))).length;
      const calls = inNotes(opens.mock.calls) + inNotes(stats.mock.calls);
      expect(core.store('project')!.list()).toHaveLength(20);
      expect(core.store('user')!.list()).toHaveLength(20);
      await core.close();
      return calls;
    };
    try {
      expect(await noteCallsOpening(true)).toBe(0);
      await fs.rm(path.join(home, 'memory-cache'), { recursive: true, force: true }); // read the files again
      expect(await noteCallsOpening(false)).toBeGreaterThanOrEqual(40);
    } finally {
      opens.mockRestore();
      stats.mockRestore();
    }
  });
});
