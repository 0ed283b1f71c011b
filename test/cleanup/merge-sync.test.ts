import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import type { MemoryCore, NoteStore } from '../../electron/memory/types.js';
import { mergeSyncFor } from '../../electron/sync/commit-first.js';
import { SyncEngine } from '../../electron/sync/sync-engine.js';
import type { SyncService } from '../../electron/sync/sync-service.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { FakeClock } from '../sync/fake-clock.js';
import { startTestServer, tempDir, type TestServer } from '../sync/harness.js';

/**
 * 待整理 merges with sync on (issue 7): the merge hands its whole batch to the sync engine's
 * commitFirst. Two devices (two homes), one real sync server on loopback.
 */
interface Device {
  core: MemoryCore;
  engine: SyncEngine;
  svc: SyncService;
  store: NoteStore;
  clock: FakeClock;
  cleanup: CleanupService;
  sync(): Promise<void>;
  write(id: string, body: string, createdAt?: number): Promise<void>;
  close(): Promise<void>;
}

async function device(name: string, url: string, token: string): Promise<Device> {
  const home = await tempDir(`merge-${name}`);
  const root = await tempDir(`merge-${name}-project`);
  const clock = new FakeClock();
  const core = await createMemoryCore({ home, projectRoot: root, now: () => clock.now() });
  const engine = new SyncEngine({ home, tokens: new MemoryTokenStore(), clock });
  const svc = engine.attachUser(core.user)!.service;
  await engine.login(url, token);
  const store = core.user.store!;
  const cleanup = new CleanupService({
    core,
    keyStore: new MemoryKeyStore(),
    sync: mergeSyncFor(engine, core),
  });
  return {
    core,
    engine,
    svc,
    store,
    clock,
    cleanup,
    sync: async () => {
      const r = (await engine.syncNow([svc])).get(svc);
      if (r?.outcome !== 'ok') throw new Error(`round ended ${JSON.stringify(r)}`);
    },
    write: async (id, body, createdAt) => {
      const existing = store.get(id);
      await store.write({
        id,
        summary: existing?.summary ?? `Pricing cards ${id}`,
        tags: ['design'],
        body,
        createdAt: createdAt ?? existing?.createdAt ?? clock.now(),
        updatedAt: clock.now(),
      });
    },
    close: async () => {
      engine.stop();
      await core.close();
    },
  };
}

let server: TestServer;
let n = 0;
const open: Device[] = [];
beforeAll(async () => {
  server = await startTestServer({ quotas: { noteBytes: 4096 } });
});
afterAll(async () => server.close());
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
});

/** a (oldest) and b on one topic, c linking to b; both devices synced. */
async function twoDevices(): Promise<[Device, Device]> {
  const token = await server.token(`merge-user-${++n}`);
  const a = await device('a', server.url, token);
  const b = await device('b', server.url, token);
  open.push(a, b);
  const t = a.clock.now();
  await a.write('a', 'Fill, no border.\n', t - 9 * 86_400_000);
  await a.write('b', 'Cards are separated by fill.\n', t - 5 * 86_400_000);
  await a.write('c', 'Layout notes, see [[b]].\n', t - 2 * 86_400_000);
  await a.sync();
  await b.sync();
  expect(
    b.store
      .list()
      .map((x) => x.id)
      .sort(),
  ).toEqual(['a', 'b', 'c']);
  return [a, b];
}

const snapshot = (d: Device): Record<string, string> =>
  Object.fromEntries(d.store.list().map((x) => [x.id, x.hash]));

describe('merge apply with sync on (commitFirst)', () => {
  it('commits the merged note, the repointed link and the delete to the cloud; the other device pulls them cleanly', async () => {
    const [a, b] = await twoDevices();
    const plan = await a.cleanup.planMerge({ ids: ['a', 'b'], scope: 'user' });
    const result = await a.cleanup.applyMerge(plan);
    expect(result).toMatchObject({ keptId: 'a', deletedIds: ['b'], committedFirst: true });
    expect(result.repointed).toEqual([{ id: 'c', links: 1 }]);
    expect(result.backupIds).toHaveLength(1);

    await b.sync();
    expect(
      b.store
        .list()
        .map((x) => x.id)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(b.store.get('a')?.body).toContain('Cards are separated by fill.');
    expect(b.store.get('c')?.body).toContain('[[a]]');
    expect(await b.svc.conflicts()).toEqual([]);
    // a has nothing left to upload: its baselines already hold the batch.
    const before = server.requests.length;
    await a.sync();
    expect(server.requests.slice(before).some((r) => r.includes('/commit'))).toBe(false);
    expect(await a.svc.conflicts()).toEqual([]);
  });

  it('is refused, naming the note, when another device edited one of the notes after planning; nothing merged anywhere', async () => {
    const [a, b] = await twoDevices();
    const plan = await a.cleanup.planMerge({ ids: ['a', 'b'], scope: 'user' });
    await b.write('b', 'Edited on the other computer.\n');
    await b.sync();
    const err = (await a.cleanup.applyMerge(plan).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/"b"/);
    // Locally: the other device's edit arrived, the merge did not happen.
    expect(
      a.store
        .list()
        .map((x) => x.id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    expect(a.store.get('a')?.body).toBe('Fill, no border.\n');
    expect(a.store.get('b')?.body).toBe('Edited on the other computer.\n');
    expect(a.store.get('c')?.body).toContain('[[b]]');
    // The only backup is the pull's (b replaced by the other device's edit), none by the merge.
    expect((await a.core.user.backups.list(50)).map((x) => x.reason)).toEqual([
      expect.stringMatching(/^sync:/),
    ]);
    expect(await a.svc.conflicts()).toEqual([]);
    // In the cloud: nothing of the merge (b pulls nothing new).
    const bBefore = snapshot(b);
    await b.sync();
    expect(snapshot(b)).toEqual(bBefore);
  });

  it("is refused when the merged body is over the sync server's per-note limit; nothing written", async () => {
    const [a, b] = await twoDevices();
    const plan = await a.cleanup.planMerge({ ids: ['a', 'b'], scope: 'user' });
    const big = { ...plan, draft: { ...plan.draft, body: `${'x'.repeat(5000)}\n` } };
    const before = snapshot(a);
    const okCommits = (): number => server.requests.filter((r) => /\/commit 200\b/.test(r)).length;
    const commitsBefore = okCommits();
    const err = (await a.cleanup.applyMerge(big).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('limit_exceeded');
    expect(err.message).toMatch(/"a".*bytes/);
    expect(snapshot(a)).toEqual(before);
    expect(await a.core.user.backups.list(50)).toEqual([]);
    const bBefore = snapshot(b);
    await b.sync();
    expect(snapshot(b)).toEqual(bBefore);
    // Whether the client knew the limit or the server refused the strict batch, nothing was committed.
    expect(okCommits()).toBe(commitsBefore);
  });
});
