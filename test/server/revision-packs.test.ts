import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsStorage } from '../../server/storage/fs-storage.js';
import type { RunningSyncServer } from '../../server/app.js';
import { PROJECT, put, startTestServer, tempDir, testClock, TestClient, tokenFor } from './helpers.js';

/**
 * A commit of several notes stores their revisions as one pack (server/revisions.ts); a commit of
 * one note as its own object. Real servers over a real data directory: what is on disk, what a
 * second device pulls, a retry after a lost compare-and-swap, and a damaged pack.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function serverOver(
  dir: string,
  beforePublish?: (key: string) => Promise<void>,
): Promise<{ server: RunningSyncServer; client: TestClient }> {
  const server = await startTestServer({
    storage: new FsStorage(dir, beforePublish ? { beforePublish } : {}),
    now: testClock().now,
  });
  cleanups.push(() => server.close());
  return { server, client: new TestClient(server.url, await tokenFor('alice')) };
}

/** The data directory's files under the scope, as keys, without temp and lock files. */
async function keysUnder(dir: string): Promise<string[]> {
  const storage = new FsStorage(dir);
  return (await storage.list('users/')).sort();
}

async function pullAll(client: TestClient): Promise<Map<string, string>> {
  const reply = await client.snapshot({ scope: PROJECT, sinceVersion: null, cursor: null, have: [] });
  expect(reply.status).toBe(200);
  return new Map(
    (reply.body.objects as Array<{ id: string; content: string }>).map((o) => [o.id, o.content]),
  );
}

describe('revision packs', () => {
  it('several notes in one commit are one pack on disk; one note is one object; a second device pulls both', async () => {
    const dir = await tempDir('packs');
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const { client } = await serverOver(dir);
    const notes = ['alpha', 'beta', 'gamma'].map((id) => put(id, `Body of ${id}.\n`));
    const first = await client.commit({ scope: PROJECT, puts: notes, deletes: [], strict: null });
    expect(first.status).toBe(200);
    const revs = (first.body.applied as Array<{ entry: { rev: string } }>).map((a) => a.entry.rev);
    expect(revs).toHaveLength(3);
    expect(new Set(revs.map((rev) => rev.replace(/-\d+$/, ''))).size).toBe(1); // one pack
    expect(await keysUnder(dir)).toEqual([
      'users/alice/projects/proj-1/memory/manifest.json',
      expect.stringMatching(/^users\/alice\/projects\/proj-1\/memory\/packs\/[0-9a-f]{16}\.json$/),
    ]);

    const edited = put('beta', 'Beta, edited alone.\n', notes[1]!.hash);
    expect((await client.commit({ scope: PROJECT, puts: [edited], deletes: [], strict: null })).status).toBe(
      200,
    );
    expect((await keysUnder(dir)).filter((key) => key.includes('/objects/beta/'))).toHaveLength(1);

    const { client: otherDevice } = await serverOver(dir);
    const pulled = await pullAll(otherDevice);
    expect(pulled).toEqual(
      new Map([
        ['alpha', notes[0]!.content],
        ['beta', edited.content],
        ['gamma', notes[2]!.content],
      ]),
    );
  });

  it('a commit that loses the compare-and-swap to another instance retries without writing its pack twice', async () => {
    const dir = await tempDir('packs-race');
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const { client: rival } = await serverOver(dir);
    let raced = false;
    const { client } = await serverOver(dir, async (key) => {
      if (raced || !key.endsWith('manifest.json')) return;
      raced = true;
      // Another instance publishes first, between this commit's pack and its manifest.
      const reply = await rival.commit({
        scope: PROJECT,
        puts: [put('rival-1', 'From the other instance.\n'), put('rival-2', 'Also.\n')],
        deletes: [],
        strict: null,
      });
      expect(reply.status).toBe(200);
    });
    await client.commit({ scope: PROJECT, puts: [put('seed', 'First.\n')], deletes: [], strict: null });
    raced = false;
    const mine = ['one', 'two', 'three', 'four'].map((id) => put(id, `Note ${id}.\n`));
    const reply = await client.commit({ scope: PROJECT, puts: mine, deletes: [], strict: null });
    expect(raced).toBe(true);
    expect(reply.status).toBe(200);
    expect(reply.body.rejected).toEqual([]);
    expect((await keysUnder(dir)).filter((key) => key.includes('/packs/'))).toHaveLength(2);
    const pulled = await pullAll(client);
    expect([...pulled.keys()].sort()).toEqual(['four', 'one', 'rival-1', 'rival-2', 'seed', 'three', 'two']);
    for (const note of mine) expect(pulled.get(note.id)).toBe(note.content);
  });

  it('a pack gone or holding another note at a place is damage: the pull fails with storage_unavailable, naming the note', async () => {
    const dir = await tempDir('packs-damaged');
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const { client } = await serverOver(dir);
    const notes = ['left', 'right'].map((id) => put(id, `Body of ${id}.\n`));
    expect((await client.commit({ scope: PROJECT, puts: notes, deletes: [], strict: null })).status).toBe(
      200,
    );
    const packKey = (await keysUnder(dir)).find((key) => key.includes('/packs/'))!;
    const packFile = path.join(dir, ...packKey.split('/'));

    // The two places swapped: each still parses, but names the other note.
    const pack = JSON.parse(await fs.readFile(packFile, 'utf8')) as { revisions: unknown[] };
    await fs.writeFile(packFile, JSON.stringify({ ...pack, revisions: [...pack.revisions].reverse() }));
    const swapped = await client.snapshot({ scope: PROJECT, sinceVersion: null, cursor: null, have: [] });
    expect(swapped.status).toBe(503);
    expect(swapped.body.error).toMatchObject({
      code: 'storage_unavailable',
      message: expect.stringMatching(/note (left|right) is missing; the storage is damaged/),
    });

    await fs.rm(packFile);
    const gone = await client.snapshot({ scope: PROJECT, sinceVersion: null, cursor: null, have: [] });
    expect(gone.status).toBe(503);
    expect(gone.body.error.code).toBe('storage_unavailable');
    // What the device already holds is not asked for, so the missing pack does not stop it.
    const held = await client.snapshot({
      scope: PROJECT,
      sinceVersion: null,
      cursor: null,
      have: notes.map((n) => n.hash),
    });
    expect(held.status).toBe(200);
    expect(held.body.objects).toEqual([]);
  });
});
