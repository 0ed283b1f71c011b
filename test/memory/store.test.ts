import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../shared/content-hash.js';
import { serializeNote } from '../../shared/note-format.js';
import { fastContentHash } from '../../electron/memory/hash.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { createBackupStore } from '../../electron/memory/backups.js';
import { readFailureCause } from '../../electron/memory/read-failure-cause.js';
import { noteReadError } from '../../electron/memory/read-failure.js';
import { manualClock, note, snapshot, tempDir, writeNoteFile } from './helpers.js';
import { rejection } from './rejection.js';

async function makeStore(opts: { maxNotes?: number; maxNoteBytes?: number } = {}) {
  const base = await tempDir();
  const dir = path.join(base, 'MEMORY');
  await fs.mkdir(dir);
  const clock = manualClock();
  const backups = createBackupStore(path.join(base, 'home'), clock.now);
  const store = createNoteStore({
    scope: 'project',
    dir,
    maxNotes: opts.maxNotes ?? 5000,
    maxNoteBytes: opts.maxNoteBytes ?? 131072,
    backups,
    now: clock.now,
  });
  return { base, dir, store, backups, clock };
}

describe('note store: loading', () => {
  it('a .md link to a directory is reported, never fatal, and the other notes load (it is left in place)', async () => {
    const { base, dir, store } = await makeStore();
    await writeNoteFile(dir, note('fine'));
    const target = path.join(base, 'elsewhere');
    await fs.mkdir(target);
    const link = path.join(dir, 'dirlink.md');
    await fs.symlink(target, link);
    await store.load();
    expect(store.list().map((n) => n.id)).toEqual(['fine']);
    const w = store.warnings().find((x) => x.path === link);
    expect(w?.code).toBe('unreadable_note');
    expect(w?.message).toContain('cannot be read');
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    await store.close();
  });

  it('loads notes, derives links, fills missing timestamps from the mtime, sorts newest first', async () => {
    const { dir, store } = await makeStore();
    await writeNoteFile(
      dir,
      note('a', { updatedAt: 1, createdAt: 1, body: 'see [[b]] and [[missing-one]] and [[b]]' }),
    );
    await writeNoteFile(dir, note('b', { updatedAt: 2, createdAt: 2 }));
    await fs.writeFile(path.join(dir, 'c.md'), '---\n{"id":"c","summary":"no times"}\n---\nbody');
    await store.load();
    expect(store.list().map((n) => n.id)).toEqual(['c', 'b', 'a']);
    expect(store.get('a')!.links).toEqual(['b', 'missing-one']);
    const c = store.get('c')!;
    expect(c.updatedAt).toBe(Math.round((await fs.stat(path.join(dir, 'c.md'))).mtimeMs));
    expect(c.tags).toEqual([]);
    expect(store.warnings()).toEqual([]);
  });

  it('accepts CRLF and a BOM', async () => {
    const { dir, store } = await makeStore();
    const text = '\uFEFF' + serializeNote(note('crlf', { body: 'line 1\nline 2\n' })).replace(/\n/g, '\r\n');
    await fs.writeFile(path.join(dir, 'crlf.md'), text);
    await store.load();
    expect(store.get('crlf')!.body).toBe('line 1\nline 2\n');
  });

  it('reports malformed files with path and reason, leaves them untouched, loads every other note', async () => {
    const { dir, store } = await makeStore();
    await writeNoteFile(dir, note('good'));
    await fs.writeFile(path.join(dir, 'no-fence.md'), 'just text\n');
    await fs.writeFile(path.join(dir, 'bad-json.md'), '---\n{"id": "bad-json", summary: nope}\n---\nbody');
    await fs.writeFile(path.join(dir, 'no-summary.md'), '---\n{"id":"no-summary"}\n---\nbody');
    await fs.writeFile(path.join(dir, 'unclosed.md'), '---\n{"id":"unclosed","summary":"s"}\nbody');
    await fs.writeFile(path.join(dir, 'bad type.md'), serializeNote(note('x')));
    const before = await snapshot(dir);
    await store.load();
    expect(store.list().map((n) => n.id)).toEqual(['good']);
    const byPath = Object.fromEntries(store.warnings().map((w) => [path.basename(w.path!), w]));
    expect(byPath['no-fence.md']!.message).toMatch(/missing frontmatter/);
    expect(byPath['bad-json.md']!.message).toMatch(/not valid JSON/);
    expect(byPath['no-summary.md']!.message).toMatch(/invalid frontmatter \(summary\)/);
    expect(byPath['unclosed.md']!.message).toMatch(/not closed/);
    expect(byPath['bad type.md']!.message).toMatch(/file name is not a valid note id/);
    for (const w of store.warnings()) {
      expect(w.code).toBe('unreadable_note');
      expect(w.message).toContain(dir);
    }
    expect(await snapshot(dir)).toEqual(before);
  });

  it('uses the file name when the frontmatter id differs, and says so', async () => {
    const { dir, store } = await makeStore();
    await writeNoteFile(dir, note('inside-id'), 'file-id.md');
    const before = await snapshot(dir);
    await store.load();
    expect(store.get('file-id')?.summary).toBe('summary of inside-id');
    expect(store.get('inside-id')).toBeUndefined();
    expect(store.warnings()[0]).toMatchObject({ code: 'id_mismatch' });
    expect(store.warnings()[0]!.message).toMatch(/the file name wins/);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('reports two files whose ids differ only in case, loads one, touches neither', async () => {
    const { dir, store } = await makeStore();
    await writeNoteFile(dir, note('Pricing'));
    try {
      await writeNoteFile(dir, note('pricing'));
    } catch {
      return; // a case-insensitive file system cannot hold both: nothing to test here
    }
    if (Object.keys(await snapshot(dir)).length < 2) return;
    const before = await snapshot(dir);
    await store.load();
    expect(store.list()).toHaveLength(1);
    const w = store.warnings().find((x) => x.code === 'id_collision')!;
    expect(w.message).toMatch(/equals "Pricing" ignoring case/);
    expect(path.basename(w.path!)).toBe('pricing.md');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('does not load a note whose body is over memory.maxNoteBytes, nor read a huge file at all', async () => {
    const { dir, store } = await makeStore({ maxNoteBytes: 1000 });
    await writeNoteFile(dir, note('ok', { body: 'x'.repeat(1000) }));
    await writeNoteFile(dir, note('big', { body: 'é'.repeat(501) })); // 1002 bytes, 501 chars
    await fs.writeFile(
      path.join(dir, 'huge.md'),
      '---\n{"id":"huge","summary":"h"}\n---\n' + 'y'.repeat(200_000),
    );
    const before = await snapshot(dir);
    await store.load();
    expect(store.list().map((n) => n.id)).toEqual(['ok']);
    const tooLarge = store.warnings().filter((w) => w.code === 'note_too_large');
    expect(tooLarge.map((w) => path.basename(w.path!)).sort()).toEqual(['big.md', 'huge.md']);
    expect(tooLarge[0]!.message).toMatch(/more than memory\.maxNoteBytes \(1000\)/);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('beyond memory.maxNotes loads the most recently modified files, warns with the count, refuses new notes', async () => {
    const { dir, store } = await makeStore({ maxNotes: 3 });
    for (let i = 0; i < 5; i++) {
      const file = await writeNoteFile(dir, note(`n${i}`));
      const t = new Date(1_700_000_000_000 + i * 60_000);
      await fs.utimes(file, t, t);
    }
    await store.load();
    expect(
      store
        .list()
        .map((n) => n.id)
        .sort(),
    ).toEqual(['n2', 'n3', 'n4']);
    const w = store.warnings().find((x) => x.code === 'over_note_limit')!;
    expect(w.message).toMatch(/the 2 least recently modified are not loaded/);
    expect(store.isFull()).toBe(true);
    const err = await rejection(store.write(note('n5')));
    expect(err.code).toBe('limit_exceeded');
    expect(err.message).toMatch(/remove some before adding new ones/);
    // Editing a loaded note still works; removing notes lets new ones in.
    await store.write({ ...note('n4'), summary: 'edited' });
    await fs.rm(path.join(dir, 'n0.md'));
    await fs.rm(path.join(dir, 'n1.md'));
    await fs.rm(path.join(dir, 'n2.md'));
    await store.load();
    expect(store.isFull()).toBe(false);
    await store.write(note('n5'));
    expect(store.get('n5')).toBeDefined();
  });

  it('computes the same content hash as shared/content-hash.ts', async () => {
    const n = note('h', { tags: ['b', 'a'], type: 'feedback', body: 'x\r\ny' });
    expect(fastContentHash(n)).toBe(contentHash(n));
    const { type: _type, ...untyped } = n;
    expect(fastContentHash(untyped)).toBe(contentHash(untyped));
  });
});

describe('note store: writing', () => {
  it('writes atomically in the canonical format and leaves no temp or lock files', async () => {
    const { dir, store } = await makeStore();
    const stored = await store.write(note('w1', { tags: ['x'] }));
    expect(await fs.readFile(path.join(dir, 'w1.md'), 'utf8')).toBe(
      serializeNote(note('w1', { tags: ['x'] })),
    );
    expect(stored.hash).toBe(contentHash(stored));
    expect(await fs.readdir(dir)).toEqual(['w1.md']);
  });

  it('refuses ids that are not safe file names: ../, reserved names, trailing dot, non-NFC', async () => {
    const { base, dir, store } = await makeStore();
    const before = await snapshot(base);
    for (const [id, reason] of [
      ['../escape', /may only contain letters/],
      ['a/b', /may only contain letters/],
      ['CON', /reserved file name on Windows/],
      ['lpt1.txt', /reserved file name on Windows/],
      ['trailing.', /must not end with a dot/],
      ['trailing ', /may only contain letters/],
      ['cafe\u0301', /NFC/],
      ['', /empty/],
    ] as const) {
      const err = await rejection(store.write(note(id)));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(reason);
    }
    expect(await snapshot(base)).toEqual(before);
    expect(await fs.readdir(path.dirname(dir))).toEqual(['MEMORY']);
  });

  it('refuses an id equal to an existing one ignoring case', async () => {
    const { dir, store } = await makeStore();
    await store.write(note('Design-Notes'));
    const err = await rejection(store.write(note('design-notes')));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/ids equal ignoring case/);
    expect(await fs.readdir(dir)).toEqual(['Design-Notes.md']);
  });

  it('refuses a body over memory.maxNoteBytes with the size', async () => {
    const { dir, store } = await makeStore({ maxNoteBytes: 100 });
    const err = await rejection(store.write(note('big', { body: 'z'.repeat(101) })));
    expect(err.code).toBe('limit_exceeded');
    expect(err.message).toMatch(/101 bytes, more than memory\.maxNoteBytes \(100\)/);
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('never overwrites a malformed file with the same name', async () => {
    const { dir, store } = await makeStore();
    await fs.writeFile(path.join(dir, 'broken.md'), 'not a note');
    await store.load();
    const err = await rejection(store.write(note('broken')));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/exists but cannot be read/);
    expect(await fs.readFile(path.join(dir, 'broken.md'), 'utf8')).toBe('not a note');
  });

  it('expectedHash: refuses when the file changed on disk, or exists when it must not', async () => {
    const { dir, store } = await makeStore();
    const first = await store.write(note('e1'));
    await fs.writeFile(
      path.join(dir, 'e1.md'),
      serializeNote(note('e1', { summary: 'changed by an agent' })),
    );
    const err = await rejection(
      store.write({ ...note('e1'), summary: 'mine' }, { expectedHash: first.hash }),
    );
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/changed on disk/);
    expect(await fs.readFile(path.join(dir, 'e1.md'), 'utf8')).toContain('changed by an agent');
    const exists = await rejection(store.write(note('e1'), { expectedHash: null }));
    expect(exists.message).toMatch(/already exists/);
  });

  it('backs up the replaced version when asked (backupReason), and on delete', async () => {
    const { dir, store, backups, clock } = await makeStore();
    await store.write(note('r1', { summary: 'v1' }));
    const v1 = await fs.readFile(path.join(dir, 'r1.md'), 'utf8');
    await store.write(note('r1', { summary: 'v2' }), { backupReason: 'sync: took the cloud side' });
    clock.advance(1000);
    const { backupId } = await store.delete('r1', { backupReason: 'forget' });
    const list = await backups.list();
    expect(list.map((b) => b.reason)).toEqual(['forget', 'sync: took the cloud side']);
    expect(list[0]!.id).toBe(backupId);
    expect((await backups.get(list[1]!.id)).content).toBe(v1);
    expect(list[1]).toMatchObject({ noteId: 'r1', scope: 'project', originDir: dir, summary: 'v1' });
    expect(await fs.readdir(dir)).toEqual([]);
    expect(store.get('r1')).toBeUndefined();
  });

  it('refuses to delete when the backup cannot be written, and keeps the note', async () => {
    const base = await tempDir();
    const dir = path.join(base, 'MEMORY');
    const homeFile = path.join(base, 'home');
    await fs.writeFile(homeFile, 'a file where the home directory should be');
    const clock = manualClock();
    const store = createNoteStore({
      scope: 'project',
      dir,
      maxNotes: 10,
      maxNoteBytes: 1000,
      backups: createBackupStore(homeFile, clock.now),
      now: clock.now,
    });
    await store.write(note('keep'));
    const err = await rejection(store.delete('keep', { backupReason: 'forget' }));
    expect(err.code).toBe('io_error');
    expect(err.message).toMatch(/cannot write a backup .* nothing was changed/);
    expect(await fs.readdir(dir)).toEqual(['keep.md']);
  });
});

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
