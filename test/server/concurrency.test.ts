import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSyncServer } from '../../server/app.js';
import { StoredManifestSchema } from '../../server/manifest.js';
import { manifestKey } from '../../server/storage-keys.js';
import { readRevisions } from '../../server/revisions.js';
import { killHard, spawnTs } from './child-process.js';
import {
  makeStorage,
  PROJECT,
  put,
  SECRET,
  startTestServer,
  TestClient,
  tokenFor,
  type AdapterKind,
} from './helpers.js';

const running: RunningSyncServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const c of cleanups.splice(0)) await c();
});

describe.each<AdapterKind>(['fs', 's3'])('50 commits racing on one scope over %s storage', (kind) => {
  it('every accepted change is in the final manifest, every rejected one was told so, nothing torn', async () => {
    const made = await makeStorage(kind);
    cleanups.push(made.cleanup);
    // Several stateless servers on the same storage: for fs, two real CLI processes plus one here;
    // for S3, three servers each with its own S3 client.
    const urls: string[] = [];
    const first = await startTestServer({ storage: made.make(), now: Date.now });
    running.push(first);
    urls.push(first.url);
    if (kind === 'fs') {
      const children = [0, 1].map(() =>
        spawnTs('server/main.ts', ['--port', '0', '--data', made.dir!], {
          OHARNESS_SYNC_JWT_SECRET: SECRET,
          OHARNESS_SYNC_RATE_LIMIT: '0',
        }),
      );
      for (const child of children) cleanups.push(() => killHard(child.child));
      urls.push(...(await Promise.all(children.map((child) => child.waitFor(/^http:/, 30_000)))));
    } else {
      for (let i = 0; i < 2; i++) {
        const server = await startTestServer({ storage: made.make(), now: Date.now });
        running.push(server);
        urls.push(server.url);
      }
    }
    const token = await tokenFor('alice', { now: Date.now() });
    const seed = put('shared', 'original\n');
    const doomed = put('doomed', 'delete me\n');
    expect(
      (await new TestClient(urls[0]!, token).commit({ scope: PROJECT, puts: [seed, doomed] })).status,
    ).toBe(200);

    // 50 clients: 25 create their own note, 20 edit the shared note from the same base, 5 delete
    // `doomed` from the same base while also creating a note of their own.
    const requests = Array.from({ length: 50 }, (_, i) => {
      const client = new TestClient(urls[i % urls.length]!, token);
      if (i < 25) return { i, client, body: { scope: PROJECT, puts: [put(`own-${i}`, `client ${i}\n`)] } };
      if (i < 45)
        return {
          i,
          client,
          body: { scope: PROJECT, puts: [put('shared', `edit by client ${i}\n`, seed.hash)] },
        };
      return {
        i,
        client,
        body: {
          scope: PROJECT,
          deletes: [{ id: 'doomed', baseHash: doomed.hash }],
          puts: [put(`del-${i}`, `deleter ${i}\n`)],
        },
      };
    });
    const replies = await Promise.all(
      requests.map(async (r) => ({ ...r, reply: await r.client.commit(r.body) })),
    );

    const accepted = new Map<string, string | null>(); // id → hash (null = deleted) the server accepted
    let sharedWinners = 0;
    let deleteWinners = 0;
    let appliedCommits = 0;
    for (const { i, reply, body } of replies) {
      expect(reply.status, `client ${i}: ${JSON.stringify(reply.body)}`).toBe(200);
      const told = [...reply.body.applied, ...reply.body.rejected].map((x: { id: string }) => x.id).sort();
      expect(told).toEqual(
        [...(body.puts ?? []).map((p) => p.id), ...(body.deletes ?? []).map((d) => d.id)].sort(),
      );
      for (const rejected of reply.body.rejected) {
        expect(rejected.code).toBe('stale_base');
        expect(rejected.current).not.toBeNull();
      }
      let changedSomething = false;
      for (const applied of reply.body.applied) {
        if (applied.unchanged) continue;
        changedSomething = true;
        accepted.set(applied.id, applied.entry.hash);
        if (applied.id === 'shared') sharedWinners++;
        if (applied.id === 'doomed') deleteWinners++;
      }
      if (changedSomething) appliedCommits++;
    }
    expect(sharedWinners).toBe(1);
    expect(deleteWinners).toBe(1);

    const stored = await made.storage.get(manifestKey('alice', PROJECT));
    const manifest = StoredManifestSchema.parse(JSON.parse(stored!.body.toString('utf8')));
    const final = new Map(manifest.entries.map((e) => [e.id, e]));
    for (const [id, hash] of accepted) expect(final.get(id)?.hash, id).toBe(hash);
    expect(manifest.entries).toHaveLength(2 + 25 + 5);
    expect(manifest.version).toBe(1 + appliedCommits);
    expect(new Set(manifest.entries.map((e) => e.id)).size).toBe(manifest.entries.length);
    const active = manifest.entries.filter((entry) => entry.rev !== null);
    const revisions = await readRevisions(
      made.storage,
      { sub: 'alice', scope: PROJECT, sealed: false },
      active,
    );
    expect(revisions.map((object) => object.id)).toEqual(active.map((entry) => entry.id));
    // And every server agrees.
    for (const url of urls) {
      const list = (
        await new TestClient(url, token).snapshot({
          scope: PROJECT,
          sinceVersion: null,
          have: manifest.entries.flatMap((e) => (e.hash ? [e.hash] : [])),
        })
      ).body;
      expect(list.version).toBe(manifest.version);
    }
  }, 120_000);
});
