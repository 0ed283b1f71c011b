import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNote } from '../../shared/note-format.js';
import type { SyncScope } from '../../shared/sync-protocol.js';
import { mulberry32 } from '../support/prng.js';
import { killHard, spawnTs } from './child-process.js';
import { makeNote, SECRET, tempDir, TestClient, tokenFor, type Reply } from './helpers.js';
import { rgwBucket } from './rgw.js';
import { promises as fs } from 'node:fs';

/**
 * Issue 16, "many server instances, one store": three sync-server processes over one store (one
 * Ceph RGW bucket; one shared data directory), every request sent to an instance picked at random.
 * Devices append lines to shared notes the way the sync engine merges: pull, edit on top of what
 * they pulled, commit with that base, and on a conflict pull again. Every line a commit was
 * acknowledged for must be in the final note exactly once (no lost update), every device must end
 * with the same notes as the store, and every conflict must arrive as a retryable protocol answer.
 */
const DEVICES = 10;
const APPENDS_PER_DEVICE = 5; // 10 × 5 = 50 acknowledged commits per scope, racing

type Storage = 'fs' | 'rgw';

interface Instances {
  urls: string[];
  stop: () => Promise<void>;
}

async function startInstances(storage: Storage): Promise<Instances> {
  let env: Record<string, string>;
  let args: string[];
  let removeStore: () => Promise<void>;
  if (storage === 'fs') {
    const dir = await tempDir('multi-instance');
    env = {};
    args = ['--data', dir];
    removeStore = () => fs.rm(dir, { recursive: true, force: true });
  } else {
    const bucket = await rgwBucket();
    const o = bucket.options;
    env = {
      OHARNESS_SYNC_S3_BUCKET: o.bucket,
      OHARNESS_SYNC_S3_ENDPOINT: o.endpoint!,
      OHARNESS_SYNC_S3_REGION: o.region!,
      OHARNESS_SYNC_S3_ACCESS_KEY_ID: o.accessKeyId!,
      OHARNESS_SYNC_S3_SECRET_ACCESS_KEY: o.secretAccessKey!,
      OHARNESS_SYNC_S3_FORCE_PATH_STYLE: '1',
    };
    args = ['--s3'];
    removeStore = bucket.cleanup;
  }
  const children = [0, 1, 2].map(() =>
    spawnTs('server/main.ts', ['--port', '0', ...args], {
      ...env,
      OHARNESS_SYNC_JWT_SECRET: SECRET,
      OHARNESS_SYNC_RATE_LIMIT: '0',
    }),
  );
  const urls = await Promise.all(children.map((child) => child.waitFor(/^http:/, 60_000)));
  return {
    urls,
    stop: async () => {
      for (const child of children) await killHard(child.child);
      await removeStore();
    },
  };
}

interface Device {
  name: string;
  notes: Map<string, { hash: string; content: string }>;
  version: number | null;
}

/** The protocol's answers to a commit that lost a race: these, and only these, are retried. */
function expectRetryableConflict(reply: Reply, baseHash: string | null): void {
  if (reply.status === 503) {
    expect(reply.body.error.code).toBe('busy');
    expect(reply.headers.get('retry-after')).toBe('1');
    return;
  }
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.rejected).toHaveLength(1);
  const rejected = reply.body.rejected[0];
  expect(rejected.code).toBe('stale_base');
  expect(rejected.current).not.toBeNull();
  expect(rejected.current.hash).not.toBe(baseHash);
}

describe.each<Storage>(['fs', 'rgw'])('three sync-server processes over one %s store', (storage) => {
  let instances: Instances;
  let token: string;
  beforeAll(async () => {
    instances = await startInstances(storage);
    token = await tokenFor('team-member', { now: Date.now() });
  }, 120_000);
  afterAll(async () => {
    await instances?.stop();
  }, 60_000);

  const clientFor = (random: () => number): TestClient =>
    new TestClient(instances.urls[Math.floor(random() * instances.urls.length)]!, token);

  /** A full pull (paging, cursor restarts) through instances picked at random per request. */
  async function pull(device: Device, scope: SyncScope, random: () => number): Promise<void> {
    let cursor: string | null = null;
    for (;;) {
      const reply = await clientFor(random).snapshot({
        scope,
        sinceVersion: device.version,
        cursor,
        have: [...device.notes.values()].map((n) => n.hash),
      });
      if (reply.status === 409 && reply.body.error.code === 'cursor_expired') {
        cursor = null;
        continue;
      }
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      if (reply.body.status === 'unchanged') return;
      const contents = new Map<string, string>(
        reply.body.objects.map((o: { id: string; content: string }) => [o.id, o.content]),
      );
      for (const entry of reply.body.entries as { id: string; hash: string | null }[]) {
        if (entry.hash === null) {
          device.notes.delete(entry.id);
          continue;
        }
        const content = contents.get(entry.id) ?? device.notes.get(entry.id)?.content;
        expect(content, `${device.name} lacks ${entry.id}`).toBeDefined();
        device.notes.set(entry.id, { hash: entry.hash, content: content! });
      }
      cursor = reply.body.nextCursor;
      if (cursor === null) {
        device.version = reply.body.version;
        return;
      }
    }
  }

  /** Appends `line` to note `id`, on top of the newest version, until a commit is acknowledged. */
  async function append(
    device: Device,
    scope: SyncScope,
    id: string,
    line: string,
    random: () => number,
  ): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      expect(attempt, `${device.name} could not append to ${id}`).toBeLessThan(200);
      await pull(device, scope, random);
      const current = device.notes.get(id) ?? null;
      const body = (current ? parseBody(current.content) : '') + `${line}\n`;
      const note = makeNote(id, body);
      const reply = await clientFor(random).commit({
        scope,
        puts: [{ id, baseHash: current?.hash ?? null, hash: note.hash, content: note.content }],
      });
      if (reply.status === 200 && reply.body.applied.length === 1) {
        expect(reply.body.applied[0].unchanged).toBe(false);
        device.notes.set(id, note);
        return attempt;
      }
      expectRetryableConflict(reply, current?.hash ?? null);
    }
  }

  it('50 racing commits per scope: no lost update, every device converges, conflicts are retryable', async () => {
    const scopes: SyncScope[] = [{ kind: 'project', projectId: `race-${storage}` }, { kind: 'user' }];
    const acknowledged = new Map<string, string[]>(); // scope/note → lines acknowledged
    const devices = scopes.map((_, s) =>
      Array.from({ length: DEVICES }, (_, d) => ({
        name: `device-${s}-${d}`,
        notes: new Map(),
        version: null,
      })),
    );
    let retries = 0;
    await Promise.all(
      scopes.flatMap((scope, s) =>
        devices[s]!.map(async (device, d) => {
          const random = mulberry32(1000 * s + d + 1);
          for (let k = 0; k < APPENDS_PER_DEVICE; k++) {
            const pickNote = random();
            const id = pickNote < 0.4 ? 'shared-a' : pickNote < 0.8 ? 'shared-b' : `own-${d}`;
            const line = `${device.name} line ${k}`;
            retries += (await append(device, scope, id, line, random)) - 1;
            const key = `${s}/${id}`;
            acknowledged.set(key, [...(acknowledged.get(key) ?? []), line]);
          }
        }),
      ),
    );
    // The races were real: some commits had to be retried.
    expect(retries).toBeGreaterThan(0);

    for (const [s, scope] of scopes.entries()) {
      const random = mulberry32(77 + s);
      // Every instance reports the same final version.
      const versions = await Promise.all(
        instances.urls.map(async (url) => {
          const reply = await new TestClient(url, token).snapshot({ scope, sinceVersion: null, have: [] });
          expect(reply.status).toBe(200);
          return reply.body.version as number;
        }),
      );
      expect(new Set(versions).size).toBe(1);
      const truth: Device = { name: 'truth', notes: new Map(), version: null };
      await pull(truth, scope, random);
      expect(truth.version).toBe(versions[0]);
      // No lost update: each note holds every acknowledged line once, and nothing else.
      let lines = 0;
      for (const [id, note] of truth.notes) {
        const expected = acknowledged.get(`${s}/${id}`) ?? [];
        const got = parseBody(note.content).split('\n').filter(Boolean);
        expect([...got].sort(), id).toEqual([...expected].sort());
        lines += got.length;
      }
      expect(lines).toBe(DEVICES * APPENDS_PER_DEVICE);
      // Every device converges on it.
      for (const device of devices[s]!) {
        await pull(device, scope, random);
        expect(device.version).toBe(truth.version);
        expect(new Map([...device.notes].map(([id, n]) => [id, n.hash]))).toEqual(
          new Map([...truth.notes].map(([id, n]) => [id, n.hash])),
        );
      }
    }
  }, 300_000);

  it('an instance that cached an older manifest never answers from it', async () => {
    const scope: SyncScope = { kind: 'project', projectId: `stale-${storage}` };
    const [a, b, c] = instances.urls.map((url) => new TestClient(url, token));
    const v1 = makeNote('n', 'first\n');
    expect((await a!.commit({ scope, puts: [{ id: 'n', baseHash: null, ...v1 }] })).status).toBe(200);
    // A and C now hold version 1 in their caches.
    expect((await a!.snapshot({ scope, sinceVersion: 1 })).body.status).toBe('unchanged');
    expect((await c!.snapshot({ scope, sinceVersion: 1 })).body.status).toBe('unchanged');
    // B replaces it with an edit of the same size, so the manifest keeps its size too.
    const v2 = makeNote('n', 'secnd\n');
    expect(
      (await b!.commit({ scope, puts: [{ id: 'n', baseHash: v1.hash, ...v2 }] })).body.applied,
    ).toHaveLength(1);
    // A's poll sees version 2, not its cached "unchanged".
    const poll = await a!.snapshot({ scope, sinceVersion: 1 });
    expect(poll.body).toMatchObject({ status: 'changes', version: 2 });
    expect(poll.body.objects[0].content).toBe(v2.content);
    // C decides a commit against version 2, not its cached version 1: the edit on top of v2 is
    // accepted and a stale one (based on v1) is refused.
    const v3 = makeNote('n', 'third\n');
    const stale = await c!.commit({ scope, puts: [{ id: 'n', baseHash: v1.hash, ...v3 }] });
    expect(stale.body.rejected[0]).toMatchObject({ code: 'stale_base', current: { hash: v2.hash } });
    const fresh = await c!.commit({ scope, puts: [{ id: 'n', baseHash: v2.hash, ...v3 }] });
    expect(fresh.body.applied[0]).toMatchObject({ unchanged: false, entry: { hash: v3.hash, seq: 3 } });
    for (const client of [a!, b!, c!]) {
      expect((await client.snapshot({ scope, sinceVersion: 2, have: [v2.hash] })).body).toMatchObject({
        status: 'changes',
        version: 3,
      });
      expect((await client.snapshot({ scope, sinceVersion: 3 })).body.status).toBe('unchanged');
    }
  }, 120_000);
});

function parseBody(content: string): string {
  const parsed = parseNote(content);
  if (!parsed.ok) throw new Error(`unreadable note: ${parsed.reason}`);
  return parsed.note.body;
}
