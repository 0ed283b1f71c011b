import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsStorage } from '../../server/storage/fs-storage.js';
import {
  PreconditionFailedError,
  StorageUnavailableError,
  UNCHANGED,
  type StorageAdapter,
} from '../../server/storage/storage.js';
import { S3Storage } from '../../server/storage/s3-storage.js';
import { makeStorage, tempDir, type AdapterKind } from './helpers.js';

// One behaviour for every adapter and store: the sync server relies on exactly these guarantees.
// 's3' is the loopback stand-in; 'rgw' is Ceph RGW (scripts/rgw.sh start), the real S3 server.
describe.each<AdapterKind>(['fs', 's3', 'rgw'])('storage conformance: %s', (kind) => {
  let made: Awaited<ReturnType<typeof makeStorage>> | null = null;
  afterEach(async () => {
    await made?.cleanup();
    made = null;
  });
  const setup = async (): Promise<StorageAdapter> => {
    made = await makeStorage(kind);
    await made.storage.check();
    return made.storage;
  };

  it('reads back what it wrote, with an ETag that changes with the content', async () => {
    const s = await setup();
    expect(await s.get('users/a/memory/manifest.json')).toBeNull();
    const first = await s.put('users/a/memory/manifest.json', '{"v":1}');
    const got = await s.get('users/a/memory/manifest.json');
    expect(got?.body.toString()).toBe('{"v":1}');
    expect(got?.etag).toBe(first.etag);
    const second = await s.put('users/a/memory/manifest.json', '{"v":2}');
    expect(second.etag).not.toBe(first.etag);
    expect((await s.get('users/a/memory/manifest.json'))?.etag).toBe(second.etag);
  });

  it('If-None-Match: * creates once and refuses the second create, keeping the first', async () => {
    const s = await setup();
    await s.put('k/obj.md', 'one', { ifNoneMatch: '*' });
    await expect(s.put('k/obj.md', 'two', { ifNoneMatch: '*' })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect((await s.get('k/obj.md'))?.body.toString()).toBe('one');
  });

  it('If-Match replaces only the version named, and fails on a missing object', async () => {
    const s = await setup();
    await expect(s.put('m.json', 'x', { ifMatch: '"nope"' })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await s.get('m.json')).toBeNull();
    const v1 = await s.put('m.json', 'v1', { ifNoneMatch: '*' });
    const v2 = await s.put('m.json', 'v2', { ifMatch: v1.etag });
    await expect(s.put('m.json', 'v3-stale', { ifMatch: v1.etag })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    const now = await s.get('m.json');
    expect(now?.body.toString()).toBe('v2');
    expect(now?.etag).toBe(v2.etag);
  });

  it('accepts an ETag quoted or not (S3 returns it quoted; RGW compares it unquoted)', async () => {
    const s = await setup();
    const v1 = await s.put('q.json', 'v1', { ifNoneMatch: '*' });
    expect(v1.etag).not.toMatch(/"/);
    const v2 = await s.put('q.json', 'v2', { ifMatch: `"${v1.etag}"` });
    await s.put('q.json', 'v3', { ifMatch: v2.etag });
    expect((await s.get('q.json'))?.body.toString()).toBe('v3');
  });

  it('getIfChanged answers UNCHANGED for the version named, the object otherwise, null when missing', async () => {
    const s = await setup();
    expect(await s.getIfChanged('c.json', 'whatever')).toBeNull();
    const v1 = await s.put('c.json', 'one', { ifNoneMatch: '*' });
    expect(await s.getIfChanged('c.json', v1.etag)).toBe(UNCHANGED);
    expect(await s.getIfChanged('c.json', `"${v1.etag}"`)).toBe(UNCHANGED);
    // Replaced (same size) by another client of the same store: the old ETag no longer matches.
    const other = made!.make();
    const v2 = await other.put('c.json', 'two', { ifMatch: v1.etag });
    const got = await s.getIfChanged('c.json', v1.etag);
    expect(got).not.toBe(UNCHANGED);
    expect(got !== UNCHANGED && got?.body.toString()).toBe('two');
    expect(got !== UNCHANGED && got?.etag).toBe(v2.etag);
    expect(await s.getIfChanged('c.json', v2.etag)).toBe(UNCHANGED);
    await other.delete('c.json');
    expect(await s.getIfChanged('c.json', v2.etag)).toBeNull();
  });

  it('lets exactly one of many racing compare-and-swap writes win, every round', async () => {
    const s = await setup();
    // Separate clients, as separate server processes would be. On RGW some losers get 500s.
    const writers = Array.from({ length: 20 }, () => made!.make());
    let base = await s.put('race.json', 'base', { ifNoneMatch: '*' });
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled(
        writers.map((w, i) => w.put('race.json', `round-${round}-writer-${i}`, { ifMatch: base.etag })),
      );
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, etag: r.value.etag }] : []));
      expect(won).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(PreconditionFailedError);
      const final = (await s.get('race.json'))!;
      expect(final.body.toString()).toBe(`round-${round}-writer-${won[0]!.i}`);
      expect(final.etag).toBe(won[0]!.etag);
      base = won[0]!;
    }
    const creates = await Promise.allSettled(
      writers.map((w, i) => w.put('created.json', `creator-${i}`, { ifNoneMatch: '*' })),
    );
    expect(creates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('lists by prefix, deletes single keys (missing is fine) and whole prefixes', async () => {
    const s = await setup();
    for (const key of [
      'users/a/memory/manifest.json',
      'users/a/memory/objects/n1/r1.md',
      'users/a/projects/p/memory/manifest.json',
      'users/ab/memory/manifest.json',
    ]) {
      await s.put(key, key);
    }
    expect((await s.list('users/a/')).sort()).toEqual([
      'users/a/memory/manifest.json',
      'users/a/memory/objects/n1/r1.md',
      'users/a/projects/p/memory/manifest.json',
    ]);
    await s.delete('users/a/memory/objects/n1/r1.md');
    await s.delete('users/a/memory/objects/n1/never.md');
    expect(await s.get('users/a/memory/objects/n1/r1.md')).toBeNull();
    expect(await s.deletePrefix('users/a/')).toBe(2);
    expect(await s.list('users/a/')).toEqual([]);
    expect(await s.list('users/ab/')).toEqual(['users/ab/memory/manifest.json']);
    expect(await s.deletePrefix('users/a/')).toBe(0);
  });

  it('refuses keys that are not plain /-separated names, on every call, and writes nothing', async () => {
    const s = await setup();
    const outside = `escape-${randomBytes(6).toString('hex')}`;
    for (const key of ['', 'a//b', './a', 'a/..', 'a\\b', 'a\0b', `a/../../${outside}`]) {
      await expect(s.put(key, 'x')).rejects.toThrow(/storage key/);
      await expect(s.put(key, 'x', { ifNoneMatch: '*' })).rejects.toThrow(/storage key/);
      await expect(s.get(key)).rejects.toThrow(/storage key/);
      await expect(s.getIfChanged(key, 'e')).rejects.toThrow(/storage key/);
      await expect(s.delete(key)).rejects.toThrow(/storage key/);
    }
    expect(await s.list('')).toEqual([]);
    if (made?.dir) expect(existsSync(path.join(made.dir, '..', outside))).toBe(false);
  });

  it('stores bytes exactly (UTF-8, CRLF, empty)', async () => {
    const s = await setup();
    const text = '---\n{"id":"å"}\n---\r\nline 一\n';
    await s.put('users/a/memory/objects/å/r.md', text);
    expect((await s.get('users/a/memory/objects/å/r.md'))?.body.toString('utf8')).toBe(text);
    await s.put('empty', '');
    expect((await s.get('empty'))?.body.length).toBe(0);
  });
});

describe('s3: a 5xx on a conditional PUT is "outcome unknown": re-read and decide', () => {
  it('counts the write as done when it landed, retries it when it did not, and loses to another writer', async () => {
    const made = await makeStorage('s3');
    try {
      const s = made.storage;
      const v1 = await s.put('m.json', 'v1', { ifNoneMatch: '*' });
      made.s3!.failConditionalPuts(1, 'after-applying');
      const v2 = await s.put('m.json', 'v2', { ifMatch: v1.etag });
      expect((await s.get('m.json'))?.etag).toBe(v2.etag);
      made.s3!.failConditionalPuts(1, 'before-applying');
      const v3 = await s.put('m.json', 'v3', { ifMatch: v2.etag });
      expect((await s.get('m.json'))?.body.toString()).toBe('v3');
      made.s3!.failConditionalPuts(1, 'before-applying');
      await s.put('new.json', 'created', { ifNoneMatch: '*' });
      expect((await s.get('new.json'))?.body.toString()).toBe('created');
      // The 500 hides that someone else won: a lost race, never a success.
      await made.make().put('m.json', 'other', { ifMatch: v3.etag });
      made.s3!.failConditionalPuts(1, 'before-applying');
      await expect(s.put('m.json', 'mine', { ifMatch: v3.etag })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      // 500s that never stop: unavailable, not a success and not a lost race.
      made.s3!.failConditionalPuts(10, 'before-applying');
      const now = (await s.get('m.json'))!;
      await expect(s.put('m.json', 'again', { ifMatch: now.etag })).rejects.toBeInstanceOf(
        StorageUnavailableError,
      );
      expect((await s.get('m.json'))?.body.toString()).toBe('other');
    } finally {
      await made.cleanup();
    }
  });
});

describe('storage that cannot be used says so', () => {
  it('fs: a data directory that cannot be created fails check() with the reason', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'not-a-dir');
    await fs.writeFile(file, 'x');
    const s = new FsStorage(path.join(file, 'data'));
    await expect(s.check()).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(s.put('a', 'b')).rejects.toBeInstanceOf(StorageUnavailableError);
    await fs.rm(dir, { recursive: true });
  });

  it('s3: an unreachable endpoint or a failing one is StorageUnavailableError, not a missing object', async () => {
    const made = await makeStorage('s3');
    const s = made.storage;
    await s.put('a', 'b');
    made.s3!.setOutage(true);
    await expect(s.get('a')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(s.check()).rejects.toBeInstanceOf(StorageUnavailableError);
    made.s3!.setOutage(false);
    expect((await s.get('a'))?.body.toString()).toBe('b');
    await made.cleanup();
    const gone = new S3Storage({
      bucket: 'b',
      endpoint: made.s3!.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
    await expect(gone.get('a')).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

describe('fs: the beforePublish test hook (what the crash and busy tests stop at)', () => {
  it('runs once per compare-and-swap, before the expected version is checked; never for creates or plain writes', async () => {
    const dir = await tempDir();
    const rival = new FsStorage(dir);
    let calls = 0;
    let interfere = false;
    const s = new FsStorage(dir, {
      beforePublish: async (key) => {
        calls++;
        if (interfere) await rival.put(key, 'rival');
      },
    });
    const created = await s.put('m.json', 'one', { ifNoneMatch: '*' });
    await s.put('other.json', 'plain');
    expect(calls).toBe(0);
    const second = await s.put('m.json', 'two', { ifMatch: created.etag });
    expect(calls).toBe(1);
    // A rival that writes at the hook wins: the version this write expected is gone.
    interfere = true;
    await expect(s.put('m.json', 'three', { ifMatch: second.etag })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect(calls).toBe(2);
    expect((await s.get('m.json'))?.body.toString()).toBe('rival');
    await fs.rm(dir, { recursive: true });
  });
});
