import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_NOTES } from '../../electron/demo/sample-notes.js';
import { deriveAccountKeys, type AccountKeys } from '../../electron/sync/crypto/account-keys.js';
import type { RandomSource } from '../../electron/sync/crypto/bytes.js';
import { EncryptionError } from '../../electron/sync/crypto/errors.js';
import { createKeyring } from '../../electron/sync/crypto/keyring.js';
import { SealedSyncClient } from '../../electron/sync/crypto/sealed-client.js';
import { SeenVersions } from '../../electron/sync/crypto/seen-versions.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import type { SyncServerOptions } from '../../server/app.js';
import type { StorageAdapter } from '../../server/storage/storage.js';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { commitBodyLimit } from '../../shared/commit-body.js';
import { sealedContentLength } from '../../shared/sealed-size.js';
import { effectiveLimits, SYNC_ROUTES, type CommitPut, type SyncScope } from '../../shared/sync-protocol.js';
import { makeStorage, startTestServer, tempDir, tokenFor, type AdapterKind } from '../server/helpers.js';

/**
 * End-to-end encryption against the real sync server on loopback: the codec (SealedSyncClient)
 * seals what the client sends and opens what it receives; the server keeps the keyring, refuses
 * unsealed or old-protocol requests for an encrypted account and removes the unencrypted copy.
 * Random bytes come from a seeded generator so the storage scan below is deterministic.
 */
function seededRandom(seed: string): RandomSource {
  let counter = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let at = 0; at < n; at += 32) {
      const block = createHash('sha256').update(`${seed}:${counter++}`).digest();
      out.set(block.subarray(0, Math.min(32, n - at)), at);
    }
    return out;
  };
}

const PROJECT_ID = 'shop7c41e0d2a9b8';
const T = Date.UTC(2026, 10, 1);

function sampleHome(): { scope: SyncScope; put: CommitPut }[] {
  return SAMPLE_NOTES.map((s) => {
    const { scope, createdDaysAgo, updatedDaysAgo, ...rest } = s;
    const note = {
      ...rest,
      createdAt: T - createdDaysAgo * 86_400_000,
      updatedAt: T - updatedDaysAgo * 86_400_000,
    };
    return {
      scope:
        scope === 'user' ? { kind: 'user' as const } : { kind: 'project' as const, projectId: PROJECT_ID },
      put: { id: note.id, baseHash: null, hash: contentHash(note), content: serializeNote(note) },
    };
  });
}

/**
 * Every id, hash, the project id, and every word and tag of 4+ characters (shorter ones turn up in
 * any base64 text) of the sample home — except "json", which the storage layout's own file names
 * (manifest.json, keyring.json) contain.
 */
function plaintextNeedles(): string[] {
  const needles = new Set<string>([PROJECT_ID]);
  for (const s of SAMPLE_NOTES) {
    needles.add(s.id);
    for (const w of `${s.summary} ${s.tags.join(' ')} ${s.body}`.match(/[\p{L}\p{N}_]{4,}/gu) ?? [])
      needles.add(w);
  }
  for (const { put } of sampleHome()) needles.add(put.hash);
  needles.delete('json');
  return [...needles];
}

async function everythingStored(storage: StorageAdapter, dir: string | undefined): Promise<string> {
  const parts: string[] = [];
  if (dir) {
    // The filesystem adapter: every file under the root, names included (temp and lock files too).
    const walk = async (d: string): Promise<void> => {
      for (const e of await fs.readdir(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        parts.push(p.slice(dir.length));
        if (e.isDirectory()) await walk(p);
        else parts.push(await fs.readFile(p, 'utf8'));
      }
    };
    await walk(dir);
  } else {
    for (const key of await storage.list('')) {
      parts.push(key, (await storage.get(key))!.body.toString('utf8'));
    }
  }
  return parts.join('\n');
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(kind: AdapterKind, user = 'alice', options: Partial<SyncServerOptions> = {}) {
  const store = await makeStorage(kind);
  const server = await startTestServer({ storage: store.storage, now: () => T, ...options });
  const seenDir = await tempDir('e2ee-seen-');
  cleanups.push(
    store.cleanup,
    () => server.close(),
    () => fs.rm(seenDir, { recursive: true, force: true }),
  );
  const token = await tokenFor(user);
  const plain = new SyncHttpClient({ origin: server.url, token });
  const made = await createKeyring('correct horse battery', { logN: 10, random: seededRandom('keyring') });
  const keys = deriveAccountKeys(made.master);
  let devices = 0;
  const device = (k: AccountKeys = keys): SealedSyncClient =>
    new SealedSyncClient(
      { origin: server.url, token },
      k,
      new SeenVersions(path.join(seenDir, `device-${++devices}.json`), k.keyId),
      seededRandom(`device-${devices}`),
    );
  return { store, server, token, plain, made, keys, device, seenDir };
}

async function uploadSample(client: SyncHttpClient): Promise<void> {
  const byScope = new Map<string, { scope: SyncScope; puts: CommitPut[] }>();
  for (const { scope, put } of sampleHome()) {
    const key = JSON.stringify(scope);
    if (!byScope.has(key)) byScope.set(key, { scope, puts: [] });
    byScope.get(key)!.puts.push(put);
  }
  for (const { scope, puts } of byScope.values()) {
    const answer = await client.commit({ scope, puts });
    expect(answer.rejected).toEqual([]);
  }
}

interface StoredPack {
  format: 1;
  revisions: Array<{ id: string; content: string }>;
}

/** The one pack of a scope's directory: its notes were committed together (server/revisions.ts). */
async function onlyPack(scopeDir: string): Promise<StoredPack & { file: string }> {
  const names = await fs.readdir(path.join(scopeDir, 'packs'));
  expect(names).toHaveLength(1);
  const file = path.join(scopeDir, 'packs', names[0]!);
  return { ...(JSON.parse(await fs.readFile(file, 'utf8')) as StoredPack), file };
}

/** Every file holding revisions under a scope's directory: its objects and its packs. */
async function revisionFiles(scopeDir: string): Promise<string[]> {
  const entries = await fs.readdir(scopeDir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (e) =>
        e.isFile() &&
        !e.name.startsWith('.') &&
        /(^|[/\\])(objects|packs)([/\\]|$)/.test(path.relative(scopeDir, e.parentPath)),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Changes the stored revisions of a scope's one pack in place, as someone with the disk could. */
async function editOnlyPack(
  scopeDir: string,
  edit: (revisions: StoredPack['revisions']) => void,
): Promise<void> {
  const { file, ...pack } = await onlyPack(scopeDir);
  edit(pack.revisions);
  await fs.writeFile(file, JSON.stringify(pack));
}

describe.each(['fs', 'rgw'] as const)('end-to-end encryption on the %s adapter', (kind) => {
  it('after encryption is on and the sample home re-uploaded, no plaintext word, tag, id or hash is in storage', async () => {
    const { store, plain, made, device } = await setup(kind);
    await uploadSample(plain); // the account as it was before encryption
    expect(await everythingStored(store.storage, store.dir)).toContain('pricing-borderless-3fa');

    const created = await plain.updateKeyring({ keyring: made.keyring, revision: 0 });
    expect(created.revision).toBe(1);
    const a = device();
    await uploadSample(a);
    const plaintextKeys = [
      ...(await store.storage.list('users/alice/memory/')),
      ...(await store.storage.list('users/alice/projects/')),
    ];
    expect(plaintextKeys.length).toBeGreaterThan(2); // manifests, and the notes' packs or objects
    const done = await plain.updateKeyring({ keyring: made.keyring, revision: 1, purgePlaintext: true });
    expect(done.purgedObjects).toBe(plaintextKeys.length);

    const stored = await everythingStored(store.storage, store.dir);
    const leaked = plaintextNeedles().filter((w) => stored.includes(w));
    expect(leaked).toEqual([]);

    // A second device reads everything back as it was written.
    const b = device();
    const expected = sampleHome();
    for (const scope of [{ kind: 'user' as const }, { kind: 'project' as const, projectId: PROJECT_ID }]) {
      const page = await b.snapshot({ scope, sinceVersion: null });
      if (page.status === 'unchanged') throw new Error('a full listing was expected');
      const want = expected
        .filter((e) => JSON.stringify(e.scope) === JSON.stringify(scope))
        .map((e) => e.put);
      expect(page.objects.map((o) => [o.id, o.hash, o.content]).sort()).toEqual(
        want.map((p) => [p.id, p.hash, p.content]).sort(),
      );
      expect(page.entries.map((e) => e.id).sort()).toEqual(want.map((p) => p.id).sort());
    }
  });
});

describe('two notes with the same contents', () => {
  it('leave no equal identifier in storage (names, hashes, records, objects)', async () => {
    const { store, plain, made, device } = await setup('fs');
    await plain.updateKeyring({ keyring: made.keyring, revision: 0 });
    const twins = ['twin-one', 'twin-two'].map((id) => {
      const note = {
        id,
        summary: 'Same summary',
        tags: ['same'],
        body: 'Same body.',
        createdAt: T,
        updatedAt: T,
      };
      return { id, baseHash: null, hash: contentHash(note), content: serializeNote(note) };
    });
    expect(twins[0]!.hash).toBe(twins[1]!.hash); // equal in the clear
    const answer = await device().commit({ scope: { kind: 'user' }, puts: twins });
    expect(answer.rejected).toEqual([]);
    const manifest = JSON.parse(
      await fs.readFile(path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory', 'manifest.json'), 'utf8'),
    ) as { entries: { id: string; hash: string; rev: string; meta: string }[] };
    expect(manifest.entries).toHaveLength(2);
    const [x, y] = manifest.entries;
    for (const field of ['id', 'hash', 'rev', 'meta'] as const) expect(x![field]).not.toBe(y![field]);
    const tokens = (e: object): Set<string> => new Set(JSON.stringify(e).match(/[0-9a-f]{32,}/g) ?? []);
    const shared = [...tokens(x!)].filter((t) => tokens(y!).has(t));
    expect(shared).toEqual([]);
    // Committed together, the twins are stored in one pack (server/revisions.ts), side by side.
    const pack = await onlyPack(path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory'));
    const stored = pack.revisions.map((r) => r.content);
    expect(stored).toHaveLength(2);
    expect(stored[0]).not.toBe(stored[1]);
  });
});

describe('a commit near the body limit', () => {
  it('is split by its sealed size, so it does not exceed the body cap the server set for plain notes', async () => {
    const commits: string[] = [];
    const { plain, made, device } = await setup('fs', 'alice', {
      quotas: { changesPerCommit: 6 },
      log: (line) => {
        if (line.includes(SYNC_ROUTES.commit)) commits.push(line);
      },
    });
    await plain.updateKeyring({ keyring: made.keyring, revision: 0 });
    const a = device();
    const listed = await a.snapshot({ scope: { kind: 'user' }, sinceVersion: null });
    const noteBytes = effectiveLimits(listed.limits).noteBytes;
    // A full commit of notes just under the size limit: as plain text it fits the body cap; sealed
    // (padded to the next power of two, then base64) it does not.
    const puts = Array.from({ length: listed.limits.quota.changesPerCommit }, (_, i) => {
      const note = {
        id: `big-${i}`,
        summary: `Big note ${i}`,
        tags: [],
        body: `${i} `.padEnd(noteBytes - 16, 'x'),
        createdAt: T,
        updatedAt: T,
      };
      return { id: note.id, baseHash: null, hash: contentHash(note), content: serializeNote(note) };
    });
    const plainBody = JSON.stringify({ scope: { kind: 'user' }, puts }).length;
    expect(plainBody).toBeLessThan(commitBodyLimit(listed.limits));
    const sealedBody = puts.reduce((n, p) => n + sealedContentLength(Buffer.byteLength(p.content)), 0);
    expect(sealedBody).toBeGreaterThan(commitBodyLimit(listed.limits));
    const answer = await a.commit({ scope: { kind: 'user' }, puts });
    expect(answer.rejected).toEqual([]);
    expect(answer.applied.map((x) => x.id).sort()).toEqual(puts.map((p) => p.id).sort());
    expect(commits.length).toBeGreaterThan(1);
    const back = await device().snapshot({ scope: { kind: 'user' }, sinceVersion: null });
    if (back.status === 'unchanged') throw new Error('a full listing was expected');
    expect(back.objects.map((o) => o.content).sort()).toEqual(puts.map((p) => p.content).sort());
  });
});

describe('an encrypted account on the server', () => {
  it('old clients get upgrade_required, unlocked-not clients account_encrypted, and the key cannot be replaced', async () => {
    const { server, token, plain, made } = await setup('fs');
    await plain.updateKeyring({ keyring: made.keyring, revision: 0 });
    const old = new SyncHttpClient({ origin: server.url, token, protocolVersion: 2 });
    await expect(old.snapshot({ scope: { kind: 'user' }, sinceVersion: null })).rejects.toMatchObject({
      failure: 'upgrade_required',
      status: 426,
    });
    await expect(plain.snapshot({ scope: { kind: 'user' }, sinceVersion: null })).rejects.toMatchObject({
      failure: 'account_encrypted',
    });
    await expect(
      plain.commit({ scope: { kind: 'user' }, puts: [sampleHome()[0]!.put] }),
    ).rejects.toMatchObject({
      failure: 'account_encrypted',
    });
    const other = await createKeyring('another passphrase', { logN: 10 });
    await expect(plain.updateKeyring({ keyring: other.keyring, revision: 1 })).rejects.toMatchObject({
      failure: 'manifest_changed',
    });
    expect((await plain.keyring()).keyring).toEqual(made.keyring);
  });

  it('sealed requests need a keyring, and sealed changes need their sealed record', async () => {
    const { plain, device, made } = await setup('fs');
    const a = device();
    await expect(a.snapshot({ scope: { kind: 'user' }, sinceVersion: null })).rejects.toMatchObject({
      failure: 'invalid_request',
    });
    await plain.updateKeyring({ keyring: made.keyring, revision: 0 });
    const bare = await plain.commit({
      scope: { kind: 'user' },
      sealed: true,
      puts: [{ id: 'a'.repeat(64), baseHash: null, hash: 'b'.repeat(64), content: 'AAAA' }],
    });
    expect(bare.rejected.map((r) => r.code)).toEqual(['invalid_note']);
  });
});

describe('tampering and rollback are detected, never written', () => {
  async function encryptedWithSample() {
    const ctx = await setup('fs');
    await ctx.plain.updateKeyring({ keyring: ctx.made.keyring, revision: 0 });
    await uploadSample(ctx.device());
    return ctx;
  }

  async function failureOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
      return 'none';
    } catch (err) {
      return err instanceof EncryptionError ? err.failure : String(err);
    }
  }

  it('one flipped bit in a stored note', async () => {
    const { store, device } = await encryptedWithSample();
    await editOnlyPack(path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory'), (revisions) => {
      const text = revisions[0]!.content;
      const i = 100;
      revisions[0]!.content = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
    });
    expect(await failureOf(device().snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe(
      'tampered',
    );
  });

  it('a note moved to another note id', async () => {
    const { store, device } = await encryptedWithSample();
    await editOnlyPack(path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory'), (revisions) => {
      revisions[1]!.content = revisions[0]!.content;
    });
    expect(await failureOf(device().snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe(
      'tampered',
    );
  });

  it('a manifest older than one this device has seen', async () => {
    const { store, device, keys } = await encryptedWithSample();
    const manifest = path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory', 'manifest.json');
    const before = await fs.readFile(manifest);
    const a = device();
    const first = await a.snapshot({ scope: { kind: 'user' }, sinceVersion: null });
    // Another device deletes a note: the manifest moves on, and this device sees it.
    const victim = sampleHome().find((e) => e.scope.kind === 'user')!.put;
    const b = device(keys);
    await b.commit({ scope: { kind: 'user' }, deletes: [{ id: victim.id, baseHash: victim.hash }] });
    const second = await a.snapshot({ scope: { kind: 'user' }, sinceVersion: first.version });
    expect(second.version).toBe(first.version + 1);
    // The server is rolled back to the earlier manifest (which still authenticates).
    await fs.writeFile(manifest, before);
    expect(await failureOf(a.snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe('rollback');
    // A device that never saw the newer version cannot tell; that is the limit of this check.
    expect(await failureOf(device().snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe('none');
  });

  it('an old entry of a note replayed in a later manifest, and a version turned back below its entries', async () => {
    const { store, device } = await encryptedWithSample();
    const dir = path.join(store.dir!, 'users', 'alice', 'e2ee', 'memory');
    const manifestFile = path.join(dir, 'manifest.json');
    const a = device();
    const first = await a.snapshot({ scope: { kind: 'user' }, sinceVersion: null });
    if (first.status === 'unchanged') throw new Error('a full listing was expected');
    const victim = first.objects[0]!;
    const oldManifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    const oldObjects = new Map(
      await Promise.all((await revisionFiles(dir)).map(async (f) => [f, await fs.readFile(f)] as const)),
    );
    // A edits the note: its new entry record carries the version A had seen.
    const edited = victim.content.replace(/\n$/, '') + ' Edited later.\n';
    const parsed = parseNote(edited);
    if (!parsed.ok) throw new Error('the edited note should parse');
    const put = await a.commit({
      scope: { kind: 'user' },
      puts: [{ id: victim.id, baseHash: victim.hash, hash: contentHash(parsed.note), content: edited }],
    });
    expect(put.rejected).toEqual([]);
    // The server puts the note's old entry (and its old sealed object) back into the newer manifest.
    type Entry = { id: string; seq: number };
    const now = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { version: number; entries: Entry[] };
    const changed = now.entries.find((e) => e.seq === now.version)!;
    const oldEntry = (oldManifest.entries as Entry[]).find((e) => e.id === changed.id)!;
    expect(oldEntry).toBeDefined();
    for (const [file, bytes] of oldObjects) await fs.writeFile(file, bytes);
    const replayed = {
      ...now,
      entries: now.entries.map((e) => (e.id === changed.id ? { ...oldEntry, seq: now.version } : e)),
    };
    await fs.writeFile(manifestFile, JSON.stringify(replayed));
    expect(await failureOf(a.snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe('rollback');
    // A device that never saw the newer entry cannot tell (docs/security.md says so).
    expect(await failureOf(device().snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe('none');
    // A manifest whose version is turned back below what its own entries' writers had seen is
    // refused even by a device that never saw anything newer.
    await fs.writeFile(manifestFile, JSON.stringify({ ...now, version: first.version }));
    expect(await failureOf(device().snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe(
      'rollback',
    );
  });

  it('a device with another key cannot open the notes', async () => {
    const { device } = await encryptedWithSample();
    const stranger = deriveAccountKeys(new Uint8Array(32).fill(9));
    expect(await failureOf(device(stranger).snapshot({ scope: { kind: 'user' }, sinceVersion: null }))).toBe(
      'tampered',
    );
  });
});
