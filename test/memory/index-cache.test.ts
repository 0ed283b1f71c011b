import { promises as fs } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { NOTE_TYPES, type Note, type Scope } from '../../shared/note.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import {
  analyzerFingerprint,
  analyzerIdentity,
  indexCacheDir,
  indexCacheFile,
  LISTS_INTO_MEMORY_MS,
  StoreIndexCache,
} from '../../electron/memory/index-cache.js';
import { createNoteStore } from '../../electron/memory/note-store.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { MemoryCore, StoredNote } from '../../electron/memory/types.js';
import { tempDir } from './helpers.js';

const WORDS = [
  'merge',
  'merging',
  'deploy',
  'cache',
  'caching',
  'the',
  'font',
  '数据库',
  '迁移',
  'theme',
  'tests',
];
const QUERIES = ['merge deploy', 'caching the font', '数据库迁移', 'theme tests', 'deploy'];
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
/** Files get mtimes an hour back (and distinct per write): the cache never keeps files written < 2 s ago. */
const PAST = Date.now() - 3_600_000;

const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
const noteArb = fc.record({
  id: fc.constantFrom(...IDS),
  scope: fc.constantFrom<Scope>('project', 'user'),
  summary: words,
  tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  body: words,
  updatedAt: fc.integer({ min: 1, max: 9 }),
  // Optional fields: the cache's columns must give back "none" as none (not null or "").
  type: fc.option(fc.constantFrom(...NOTE_TYPES), { nil: undefined }),
  extra: fc.option(fc.record({ source: words }), { nil: undefined }),
});
type NoteArb = typeof noteArb extends fc.Arbitrary<infer T> ? T : never;
const opArb = fc.oneof(
  noteArb.map((note) => ({ kind: 'write' as const, note })),
  fc
    .record({ id: fc.constantFrom(...IDS), scope: fc.constantFrom<Scope>('project', 'user') })
    .map((r) => ({ kind: 'delete' as const, ...r })),
  // A flipped byte anywhere: header, rows, index or one of the bodies (those are checked only when read).
  fc
    .double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
    .map((at) => ({ kind: 'corrupt' as const, at })),
);

interface Env {
  home: string;
  root: string;
  dirs: Record<Scope, string>;
  tick: number;
}

async function writeNote(
  env: Env,
  n: Omit<NoteArb, 'type' | 'extra'> & Partial<Pick<NoteArb, 'type' | 'extra'>>,
): Promise<void> {
  const file = path.join(env.dirs[n.scope], `${n.id}.md`);
  const note: Note = {
    id: n.id,
    summary: n.summary,
    tags: n.tags,
    body: n.body,
    createdAt: 1,
    updatedAt: n.updatedAt,
    ...(n.type !== undefined ? { type: n.type } : {}),
    ...(n.extra !== undefined ? { extra: n.extra } : {}),
  };
  await fs.writeFile(file, serializeNote(note));
  const t = new Date(PAST + env.tick++ * 1000);
  await fs.utimes(file, t, t);
}

/** Project notes `ids` (the i-th with body `bodyOf(i)`) and their index cache, written by one open: the cache file. */
async function cachedProjectNotes(env: Env, ids: string[], bodyOf: (i: number) => string): Promise<string> {
  for (const [i, id] of ids.entries())
    await writeNote(env, {
      id,
      scope: 'project',
      summary: `merge ${id}`,
      tags: [],
      body: bodyOf(i),
      updatedAt: i + 1,
    });
  const core = await open(env);
  core.search();
  await core.close();
  return indexCacheFile(env.home, 'project', env.dirs.project);
}

const LIST_IDS = Array.from({ length: 40 }, (_, i) => `n${i}`);
/** Forty project notes whose words recur across notes (index lists of many sizes), and their cache file. */
const listsCorpus = (env: Env): Promise<string> =>
  cachedProjectNotes(env, LIST_IDS, (i) => `deploy font ${i % 3 ? 'theme' : 'tests'} 数据库 ${i}`);

/** What a store holds, independent of the cache: the notes read fresh from disk. */
async function freshNotes(env: Env, scope: Scope): Promise<StoredNote[]> {
  const store = createNoteStore({
    scope,
    dir: env.dirs[scope],
    maxNotes: 5000,
    maxNoteBytes: 131072,
    backups: null,
    now: Date.now,
  });
  await store.load();
  return store.list();
}

const plain = (n: StoredNote) => ({
  id: n.id,
  extra: n.extra,
  scope: n.scope,
  summary: n.summary,
  type: n.type,
  tags: n.tags,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
  body: n.body,
  hash: n.hash,
  links: n.links,
  path: n.path,
});

/** The core (cache primed) answers exactly like an index built fresh from the files. */
async function expectSameAsFresh(env: Env, core: MemoryCore): Promise<void> {
  const fresh = [...(await freshNotes(env, 'project')), ...(await freshNotes(env, 'user'))];
  const loaded = [...core.store('project')!.list(), ...core.store('user')!.list()];
  expect(loaded.map(plain)).toEqual(fresh.map(plain));
  const truth = new SearchIndex(fresh);
  for (const q of QUERIES) {
    expect(core.search().search(q)).toEqual(truth.search(q));
    expect(core.search().recall(q, { minScore: 0.1 })).toEqual(truth.recall(q, { minScore: 0.1 }));
  }
  const draft = { summary: 'merging the cache', tags: ['deploy'], body: 'font tests' };
  expect(core.search().related(draft)).toEqual(truth.related(draft));
}

async function setup(): Promise<Env> {
  const base = await tempDir('index-cache');
  const env: Env = {
    home: path.join(base, 'home'),
    root: path.join(base, 'project'),
    dirs: { project: path.join(base, 'project', 'MEMORY'), user: path.join(base, 'home', 'memory', 'user') },
    tick: 0,
  };
  await fs.mkdir(env.dirs.project, { recursive: true });
  await fs.mkdir(env.dirs.user, { recursive: true });
  return env;
}

const open = (env: Env) => createMemoryCore({ home: env.home, projectRoot: env.root, env: {} });

/**
 * Rewrites the project cache file with header fields changed and its copy of the summary "deploy"
 * saying "cached" (same length, CRC recomputed; kept if an earlier rewrite's save carried it over):
 * whether the copy is used shows in the loaded summary.
 */
async function cacheRewriter(env: Env): Promise<(change: object) => Promise<void>> {
  const file = indexCacheFile(env.home, 'project', env.dirs.project);
  const bytes = await fs.readFile(file);
  const nl = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as { notes: { length: number; crc: number } };
  const notes = Buffer.from(bytes.subarray(nl + 1, nl + 1 + header.notes.length));
  const at = notes.indexOf('"deploy"');
  if (at > 0) notes.write('"cached"', at);
  else expect(notes.indexOf('"cached"')).toBeGreaterThan(0); // said so by an earlier rewrite
  const rest = bytes.subarray(nl + 1 + header.notes.length);
  return (change) =>
    fs.writeFile(
      file,
      Buffer.concat([
        Buffer.from(
          JSON.stringify({ ...header, notes: { ...header.notes, crc: crc32(notes) }, ...change }) + '\n',
        ),
        notes,
        rest,
      ]),
    );
}

describe('the index cache (memory-cache/)', () => {
  it('an index loaded from the cache equals one built fresh, with random edits, deletes, adds and corruption between runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(noteArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(opArb, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        async (initial, rounds) => {
          const env = await setup();
          for (const n of initial) await writeNote(env, n);
          let core = await open(env);
          core.search(); // analyses every note: the cache saved at close holds them
          await core.close();
          for (const ops of rounds) {
            for (const op of ops) {
              if (op.kind === 'write') await writeNote(env, op.note);
              else if (op.kind === 'delete')
                await fs.rm(path.join(env.dirs[op.scope], `${op.id}.md`), { force: true });
              else {
                const file = indexCacheFile(env.home, 'project', env.dirs.project);
                const bytes = await fs.readFile(file).catch(() => null);
                if (bytes && bytes.length > 0) {
                  const at = Math.floor(bytes.length * op.at);
                  bytes[at] = bytes[at]! ^ 0x20;
                  await fs.writeFile(file, bytes);
                }
              }
            }
            core = await open(env);
            await expectSameAsFresh(env, core);
            await core.close();
          }
          await fs.rm(path.dirname(env.home), { recursive: true, force: true });
        },
      ),
      { numRuns: 20 },
    );
  });

  it('is written per scope under OHARNESS_HOME/memory-cache; changed, deleted and added files are seen', async () => {
    const env = await setup();
    for (const [i, id] of IDS.entries())
      await writeNote(env, {
        id,
        scope: i % 2 ? 'user' : 'project',
        summary: `deploy ${id}`,
        tags: [],
        body: 'x',
        updatedAt: i,
      });
    let core = await open(env);
    core.search();
    await core.close();
    expect((await fs.readdir(indexCacheDir(env.home))).sort()).toEqual(
      [
        path.basename(indexCacheFile(env.home, 'project', env.dirs.project)),
        path.basename(indexCacheFile(env.home, 'user', env.dirs.user)),
      ].sort(),
    );
    // A changed file (another mtime) is read again, a deleted one is gone, a new one appears.
    await writeNote(env, {
      id: 'a',
      scope: 'project',
      summary: 'merge a',
      tags: [],
      body: 'x',
      updatedAt: 1,
    });
    await fs.rm(path.join(env.dirs.user, 'b.md'));
    await writeNote(env, { id: 'z', scope: 'user', summary: 'merge z', tags: [], body: 'x', updatedAt: 1 });
    core = await open(env);
    expect(core.store('project')!.get('a')?.summary).toBe('merge a');
    expect(core.store('user')!.get('b')).toBeUndefined();
    expect(core.store('user')!.get('z')?.summary).toBe('merge z');
    await expectSameAsFresh(env, core);
    await core.close();
  });

  it("bodies are read when asked for; a cache file replaced or damaged since the open gives the notes' own bodies", async () => {
    const env = await setup();
    const ids = ['a', 'b', 'c', 'd'];
    const file = await cachedProjectNotes(env, ids, (i) => `body ${i} 数据`);
    let core: MemoryCore;
    const bodies = async (c: MemoryCore) => ids.map((id) => c.store('project')!.get(id)!.body);
    const expected = ids.map((_, i) => `body ${i} 数据`);

    core = await open(env); // primed from the cache: no body read yet
    expect((await bodies(core))[0]).toBe(expected[0]);
    // Another process rewrites the cache (every byte of the bodies moved) before b, c, d are read.
    const other = await fs.readFile(file);
    await fs.writeFile(file, Buffer.concat([Buffer.from('x'.repeat(7)), other]));
    expect(await bodies(core)).toEqual(expected);
    await core.close();

    await fs.writeFile(file, other);
    core = await open(env);
    // A damaged byte in the last body: caught by that body's CRC when read, the note's file read instead.
    const damaged = Buffer.from(other);
    damaged[damaged.length - 3] = damaged[damaged.length - 3]! ^ 0x01;
    await fs.writeFile(file, damaged);
    expect(await bodies(core)).toEqual(expected);
    await core.close();
  });

  it("an open reads the index's lists when asked for: damaged after the open, answers stay exact and the cache is rewritten", async () => {
    const env = await setup();
    const ids = LIST_IDS;
    const file = await listsCorpus(env);
    const core = (e: Env) => createMemoryCore({ home: e.home, projectRoot: e.root, env: {} });
    /** The notes with an analysis in the cache: N of its segment's head (the word after T). */
    const analysedIn = (c: { bytes: Buffer; at: number; headAt: number }) =>
      c.bytes.readUInt32LE(c.headAt + 4);
    const listsOf = async () => {
      const bytes = await fs.readFile(file);
      const nl = bytes.indexOf(0x0a);
      const header = JSON.parse(bytes.toString('utf8', 0, nl)) as {
        notes: { length: number };
        index: { length: number };
        lists: { length: number; crc: number };
      };
      const headAt = nl + 1 + header.notes.length;
      const at = headAt + header.index.length;
      return { at, headAt, length: header.lists.length, crc: header.lists.crc, bytes };
    };
    for (const watch of [true, false]) {
      const before = await listsOf();
      const core = await createMemoryCore({ home: env.home, projectRoot: env.root, env: {}, watch });
      // Every list's bytes changed in place (the same file, as opened) after the open.
      const handle = await fs.open(file, 'r+');
      const flipped = Buffer.from(before.bytes.subarray(before.at, before.at + before.length)).map(
        (b) => b ^ 0x10,
      );
      await handle.write(flipped, 0, flipped.length, before.at);
      await handle.close();
      await expectSameAsFresh(env, core);
      await core.close();
      // Read when asked for (a long-running open too, before it reads them into memory): each
      // damaged list was caught by its CRC, and the cache was rewritten.
      const after = await listsOf();
      expect(crc32(after.bytes.subarray(after.at, after.at + after.length))).toBe(after.crc);
    }
    // One byte of one list damaged: the other lists are still read (one by one, each checked) and
    // the rewritten cache keeps every analysis but that list's note's.
    const again = await core(env);
    again.search(); // analyses every note again: a complete cache to damage
    await again.close();
    const complete = await listsOf();
    expect(analysedIn(complete)).toBe(ids.length);
    const damaged = Buffer.from(complete.bytes);
    const at = complete.at + complete.length - 8; // inside the last note's analysis
    damaged[at] = damaged[at]! ^ 0x01;
    await fs.writeFile(file, damaged);
    const oneShot = await core(env);
    await expectSameAsFresh(env, oneShot);
    await oneShot.close();
    const rewritten = await listsOf();
    expect(crc32(rewritten.bytes.subarray(rewritten.at, rewritten.at + rewritten.length))).toBe(
      rewritten.crc,
    );
    expect(analysedIn(rewritten)).toBeGreaterThanOrEqual(ids.length - 1);
    await fs.rm(path.dirname(env.home), { recursive: true, force: true });
  });

  it('a long-running open reads the lists into memory 2 s after and lets go of the file; a save in between leaves its index whole; a damaged section is kept, checked list by list', async () => {
    const env = await setup();
    const ids = LIST_IDS;
    const file = await listsCorpus(env);
    const clean = await fs.readFile(file);
    const nl = clean.indexOf(0x0a);
    const header = JSON.parse(clean.toString('utf8', 0, nl)) as Record<
      'notes' | 'index' | 'lists',
      { length: number }
    >;
    const listsAt = nl + 1 + header.notes.length + header.index.length;
    const linux = process.platform === 'linux';
    /** Descriptors of this process open on the cache file (Linux: /proc/self/fd; elsewhere not checked). */
    const heldOpen = async (): Promise<number | null> => {
      if (!linux) return null;
      let held = 0;
      for (const fd of await fs.readdir('/proc/self/fd'))
        // A descriptor on a file since replaced reads "<file> (deleted)".
        if ((await fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')).replace(/ \(deleted\)$/, '') === file)
          held++;
      return held;
    };
    const held = async (n: number) => expect(await heldOpen()).toBe(linux ? n : null);
    /** A store, its cache and an index as a long-running core builds them (the cache primed first). */
    const opened = async () => {
      const store = createNoteStore({
        scope: 'project',
        dir: env.dirs.project,
        maxNotes: 5000,
        maxNoteBytes: 131072,
        backups: null,
        now: Date.now,
      });
      const cache = new StoreIndexCache(env.home, store, 131072, { longRunning: true });
      cache.prime();
      await store.load();
      const index = new SearchIndex();
      const adopted = cache.adoptInto(index);
      for (const n of store.list()) if (!adopted.has(n)) index.upsert(n, cache.analysisOf(n));
      return { store, cache, index, adopted: adopted.size };
    };
    /** The index answers exactly like one built fresh from the files. */
    const exact = async (index: SearchIndex) => {
      const truth = new SearchIndex(await freshNotes(env, 'project'));
      for (const q of QUERIES) {
        expect(index.search(q)).toEqual(truth.search(q));
        expect(index.recall(q, { minScore: 0.1 })).toEqual(truth.recall(q, { minScore: 0.1 }));
      }
    };
    const stamp = async () => {
      const st = await fs.stat(file);
      return `${st.ino}:${st.mtimeMs}:${st.size}`;
    };

    // LISTS_INTO_MEMORY_MS after the open: read into memory, the file let go of; lists are then
    // served from memory whatever happens to the file (every list flipped in place: a list read
    // from the file would fail its CRC, and the damage would make the next save rewrite it).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let { cache, index, adopted } = await opened().catch((err: unknown) => {
      vi.useRealTimers();
      throw err;
    });
    try {
      expect(adopted).toBe(ids.length); // every note from the cache
      vi.advanceTimersByTime(LISTS_INTO_MEMORY_MS - 1);
      await held(1);
      vi.advanceTimersByTime(1);
      await held(0);
    } finally {
      vi.useRealTimers();
    }
    const flipped = Buffer.from(clean);
    for (let at = listsAt; at < listsAt + header.lists.length; at++) flipped[at] = flipped[at]! ^ 0x10;
    await fs.writeFile(file, flipped);
    await exact(index);
    await cache.save(); // nothing changed, nothing damaged: not rewritten
    expect((await fs.readFile(file)).equals(flipped)).toBe(true);
    cache.close();

    // A section damaged before it is read into memory: kept, each list checked as served (a
    // damaged one caught by its CRC, never served), the file let go of all the same; answers stay
    // exact and the next save rewrites the file.
    await fs.writeFile(file, clean);
    ({ cache, index, adopted } = await opened());
    expect(adopted).toBe(ids.length);
    await held(1);
    await fs.writeFile(file, flipped); // in place: the file as opened
    cache.listsIntoMemory();
    await held(0);
    await exact(index);
    await cache.save();
    cache.close();
    expect((await fs.readFile(file)).equals(flipped)).toBe(false);
    // A save that writes (notes changed) before the timer: the lists are in memory before the file
    // is let go of, so the index goes on serving them after it is replaced (no damage: the next
    // save, with nothing changed, does not rewrite).
    await fs.writeFile(file, clean);
    const reopened = await opened();
    ({ cache, index } = reopened);
    const { store } = reopened;
    await held(1);
    // Most notes changed (analysed anew): the save reads few lists of its own.
    for (const id of ids.slice(0, 36))
      await writeNote(env, {
        id,
        scope: 'project',
        summary: `merge ${id}`,
        tags: ['theme'],
        body: `deploy 数据库 again ${id}`,
        updatedAt: 99,
      });
    await store.load();
    for (const id of ids.slice(0, 36)) {
      const changed = store.get(id)!;
      index.upsert(changed, cache.analysisOf(changed));
    }
    const intoMemory = vi.spyOn(cache, 'listsIntoMemory');
    await cache.save();
    expect(intoMemory).toHaveBeenCalled(); // whether or not its own reads had read the section already
    await held(0);
    const saved = await stamp();
    await exact(index);
    await cache.save();
    expect(await stamp()).toBe(saved);
    cache.close();

    await fs.rm(path.dirname(env.home), { recursive: true, force: true });
  });

  it('many bodies read at once (a first sync, an export) come from one read of the section, each still checked', async () => {
    const env = await setup();
    const ids = Array.from({ length: 90 }, (_, i) => `n${i}`);
    const bodyOf = (i: number) => `body ${i} 数据 ${'x'.repeat(i * 13)}\n`;
    const file = await cachedProjectNotes(env, ids, bodyOf);
    let core: MemoryCore;
    const expected = ids.map((_, i) => bodyOf(i));
    const body = (c: MemoryCore, i: number) => c.store('project')!.get(ids[i]!)!.body;

    core = await open(env);
    for (let i = 0; i < 40; i++) expect(body(core, i)).toBe(expected[i]);
    // The notes' files change behind the open store: what it serves now comes from the cache's
    // section, each body at its own place (a wrong slice would fail its CRC and read these instead).
    const onDisk = new Map<string, { text: string; mtime: Date }>();
    for (const id of ids) {
      const f = path.join(env.dirs.project, `${id}.md`);
      onDisk.set(f, { text: await fs.readFile(f, 'utf8'), mtime: (await fs.stat(f)).mtime });
      await fs.writeFile(f, onDisk.get(f)!.text.replace(/body \d+/, 'changed on disk'));
    }
    expect(ids.map((_, i) => body(core, i))).toEqual(expected);
    expect(ids.map((_, i) => body(core, i))).toEqual(expected); // again, from the same section
    await core.close();
    for (const [f, { text, mtime }] of onDisk) {
      await fs.writeFile(f, text);
      await fs.utimes(f, mtime, mtime);
    }
    core = await open(env);
    core.search();
    await core.close();

    // Damaged after the first bodies were read one by one, before the section is read: the damaged
    // body's CRC sends it to its note's file; every other body comes from the section.
    const clean = await fs.readFile(file);
    core = await open(env);
    for (let i = 0; i < 40; i++) expect(body(core, i)).toBe(expected[i]);
    const damaged = Buffer.from(clean);
    const at = damaged.lastIndexOf(Buffer.from(`body 70 `));
    expect(at).toBeGreaterThan(clean.length / 2);
    damaged[at + 2] = damaged[at + 2]! ^ 0x01;
    await fs.writeFile(file, damaged);
    expect(ids.map((_, i) => body(core, i))).toEqual(expected);
    await core.close();

    // Replaced by another process (every byte moved) before the section is read; then removed.
    await fs.writeFile(file, clean);
    core = await open(env);
    for (let i = 0; i < 40; i++) expect(body(core, i)).toBe(expected[i]);
    await fs.writeFile(file, Buffer.concat([Buffer.from('y'.repeat(11)), clean]));
    expect(ids.map((_, i) => body(core, i))).toEqual(expected);
    await fs.rm(file);
    expect(ids.map((_, i) => body(core, i))).toEqual(expected);
    await core.close();
  });

  it('a cache of another analyzer version, directory or size limit is ignored', async () => {
    const env = await setup();
    await writeNote(env, { id: 'a', scope: 'project', summary: 'deploy', tags: [], body: 'x', updatedAt: 1 });
    let core = await open(env);
    core.search();
    await core.close();
    const rewrite = await cacheRewriter(env);
    await rewrite({});
    core = await open(env);
    expect(core.store('project')!.get('a')?.summary).toBe('cached'); // the file is not read again
    await core.close();
    for (const change of [
      { fingerprint: 'other' },
      { dir: '/elsewhere' },
      { maxNoteBytes: 1 },
      { version: 0 },
    ]) {
      await rewrite(change);
      core = await open(env);
      expect(core.store('project')!.get('a')?.summary).toBe('deploy');
      await core.close();
    }
  });

  it("a cache this very build wrote on this runtime is taken without the analyzer's probe; any other writer's is checked by it", async () => {
    const env = await setup();
    const header = async () => {
      const bytes = await fs.readFile(indexCacheFile(env.home, 'project', env.dirs.project));
      return JSON.parse(bytes.toString('utf8', 0, bytes.indexOf(0x0a))) as {
        fingerprint: string;
        writtenBy: string | null;
      };
    };
    /** Opens as a process running `analyzerBuild` (the bundled CLI says its build): note a's summary. */
    const reopen = async (analyzerBuild?: string) => {
      const core = await createMemoryCore({
        home: env.home,
        projectRoot: env.root,
        env: {},
        ...(analyzerBuild ? { analyzerBuild } : {}),
      });
      core.search();
      const summary = core.store('project')!.get('a')?.summary;
      await core.close();
      return summary;
    };
    await writeNote(env, { id: 'a', scope: 'project', summary: 'deploy', tags: [], body: 'x', updatedAt: 1 });
    expect(await reopen('build-a')).toBe('deploy');
    const written = await header();
    expect(written.fingerprint).toBe(analyzerFingerprint());
    expect(written.writtenBy).toBe(analyzerIdentity('build-a'));
    expect(written.writtenBy).toContain(`build-a ${process.versions.v8} `);
    // A fingerprint no probe gives, in a file this build wrote here: taken as written, and carried
    // into the next save (a note added) rather than analysed again.
    await (
      await cacheRewriter(env)
    )({ fingerprint: 'not-from-a-probe' });
    await writeNote(env, { id: 'b', scope: 'project', summary: 'fonts', tags: [], body: 'y', updatedAt: 2 });
    expect(await reopen('build-a')).toBe('cached');
    expect(await header()).toMatchObject({ fingerprint: 'not-from-a-probe', writtenBy: written.writtenBy });
    // The same build on another runtime (another V8), another build, and a process that says none
    // (the app, the sources) check the probe: the file is not taken, and its save carries the
    // probe's fingerprint and the writer's identity.
    const otherRuntime = written.writtenBy!.replace(process.versions.v8, '0.0.0');
    for (const [writtenBy, build] of [
      [otherRuntime, 'build-a'],
      [written.writtenBy, 'build-b'],
      [written.writtenBy, undefined],
    ] as const) {
      await (
        await cacheRewriter(env)
      )({ fingerprint: 'not-from-a-probe', writtenBy });
      expect(await reopen(build)).toBe('deploy');
      expect(await header()).toMatchObject({
        fingerprint: analyzerFingerprint(),
        writtenBy: build ? analyzerIdentity(build) : null,
      });
    }
  });
});
