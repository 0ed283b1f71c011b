import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startSyncServer } from '../../../server/app.js';
import { s3OptionsFromEnv, S3Storage } from '../../../server/storage/s3-storage.js';
import { PreconditionFailedError } from '../../../server/storage/storage.js';
import { ADMIN_KEY, put, PROJECT, SECRET, TestClient, tokenFor } from '../helpers.js';

// Runs only through `npm run test:s3-real`, which needs OHARNESS_SYNC_S3_BUCKET and credentials
// (see docs/self-hosting.md). Everything is written under a random prefix and removed afterwards.
const env = s3OptionsFromEnv(process.env);
if ('problem' in env) throw new Error(`npm run test:s3-real needs a real bucket: ${env.problem}`);
const prefix = `${process.env.OHARNESS_SYNC_S3_PREFIX ?? ''}memory-desk-test-${randomBytes(6).toString('hex')}/`;
const storage = new S3Storage({ ...env.options, prefix });

afterAll(async () => {
  await storage.deletePrefix('');
});

describe('a real S3-compatible bucket', () => {
  it('honours conditional writes the way the sync server needs', async () => {
    await storage.check();
    const created = await storage.put('m.json', 'v1', { ifNoneMatch: '*' });
    await expect(storage.put('m.json', 'again', { ifNoneMatch: '*' })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    const replaced = await storage.put('m.json', 'v2', { ifMatch: created.etag });
    await expect(storage.put('m.json', 'stale', { ifMatch: created.etag })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect((await storage.get('m.json'))?.etag).toBe(replaced.etag);
    const racers = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => storage.put('m.json', `r${i}`, { ifMatch: replaced.etag })),
    );
    expect(racers.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('serves a sync round and an erase', async () => {
    const server = await startSyncServer({
      storage,
      jwtSecret: SECRET,
      adminKey: ADMIN_KEY,
      rateLimit: null,
    });
    try {
      const alice = new TestClient(server.url, await tokenFor('alice', { now: Date.now() }));
      const a = put('alpha', 'on a real bucket\n');
      expect((await alice.commit({ scope: PROJECT, puts: [a] })).body.applied).toHaveLength(1);
      expect((await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body.objects[0].content).toBe(
        a.content,
      );
      const erase = await fetch(server.url + '/v1/admin/erase', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
        body: '{"userId":"alice"}',
      });
      expect(erase.status).toBe(200);
      expect(await storage.list('users/alice/')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
