import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoredManifestSchema } from '../../server/manifest.js';
import type { RunningSyncServer } from '../../server/app.js';
import { killHard, spawnTs } from './child-process.js';
import { PROJECT, put, SECRET, startTestServer, tempDir, TestClient, tokenFor } from './helpers.js';

const MANIFEST = 'users/alice/projects/proj-1/memory/manifest.json';
const running: RunningSyncServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function readManifest(dir: string) {
  return StoredManifestSchema.parse(JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8')));
}

describe('filesystem storage survives a server killed mid-commit', () => {
  it('kill -9 between writing the objects and publishing the manifest leaves the previous manifest', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const token = await tokenFor('alice', { now: Date.now() });
    const child = spawnTs('test/server/fixtures/crash-child.ts', [], {
      DATA_DIR: dir,
      JWT_SECRET: SECRET,
      HANG_AT_PUBLISH: '1',
    });
    try {
      const url = await child.waitFor(/^http:/);
      const client = new TestClient(url, token);
      const a = put('alpha', 'kept\n');
      expect((await client.commit({ scope: PROJECT, puts: [a] })).status).toBe(200);
      const before = await fs.readFile(path.join(dir, MANIFEST), 'utf8');

      const inFlight = client
        .commit({ scope: PROJECT, puts: [put('alpha', 'lost edit\n', a.hash), put('beta', 'lost new\n')] })
        .catch((err: unknown) => err);
      await child.waitFor(/^PUBLISHING$/);
      await killHard(child.child);
      expect(await inFlight).toBeInstanceOf(Error); // the client was not told it succeeded

      expect(await fs.readFile(path.join(dir, MANIFEST), 'utf8')).toBe(before);
      const manifest = await readManifest(dir);
      expect(manifest.version).toBe(1);
      expect(manifest.entries.map((e) => [e.id, e.hash])).toEqual([['alpha', a.hash]]);
    } finally {
      await killHard(child.child);
    }

    // A new server on the same directory carries on from the previous manifest.
    const server = await startTestServer({ storage: { kind: 'fs', dir }, now: Date.now });
    running.push(server);
    const client = new TestClient(server.url, token);
    const list = (await client.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    expect(list.objects.map((o: { content: string }) => o.content.endsWith('kept\n'))).toEqual([true]);
    const retry = await client.commit({
      scope: PROJECT,
      puts: [put('alpha', 'edit again\n', list.entries[0].hash)],
    });
    expect(retry.body.version).toBe(2);
  }, 60_000);

  it('random kill -9 during a stream of commits: every acknowledged commit is in a valid manifest', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const token = await tokenFor('alice', { now: Date.now() });
    const acknowledged = new Map<string, string>(); // id → hash the server confirmed
    for (let round = 0; round < 2; round++) {
      const child = spawnTs('test/server/fixtures/crash-child.ts', [], { DATA_DIR: dir, JWT_SECRET: SECRET });
      const url = await child.waitFor(/^http:/);
      const client = new TestClient(url, token);
      let stop = false;
      const writers = [0, 1, 2].map(async (w) => {
        for (let i = 0; !stop; i++) {
          const note = put(`r${round}-w${w}-${i}`, `round ${round}\n`.repeat(50));
          try {
            const reply = await client.commit({ scope: PROJECT, puts: [note] });
            if (reply.status === 200 && reply.body.applied.length === 1) acknowledged.set(note.id, note.hash);
          } catch {
            return; // killed
          }
        }
      });
      // Kill once this round has a few acknowledged commits, at a random moment after that.
      const target = acknowledged.size + 3 + round;
      while (acknowledged.size < target && child.child.exitCode === null)
        await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, Math.random() * 40));
      stop = true;
      await killHard(child.child);
      await Promise.all(writers);
      const manifest = await readManifest(dir);
      const hashes = new Map(manifest.entries.map((e) => [e.id, e.hash]));
      for (const [id, hash] of acknowledged) expect(hashes.get(id)).toBe(hash);
      for (const entry of manifest.entries) {
        await fs.access(
          path.join(dir, 'users/alice/projects/proj-1/memory/objects', entry.id, `${entry.rev}.md`),
        );
      }
    }
    expect(acknowledged.size).toBeGreaterThan(3);
  }, 120_000);

  it('a lock left by a dead process is broken, so the scope does not stay stuck', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const server = await startTestServer({ storage: { kind: 'fs', dir }, now: Date.now });
    running.push(server);
    const client = new TestClient(server.url, await tokenFor('alice', { now: Date.now() }));
    const a = put('alpha', 'one\n');
    await client.commit({ scope: PROJECT, puts: [a] });
    const deadPid = Number(
      execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString(),
    );
    const lock = path.join(dir, 'users/alice/projects/proj-1/memory/.manifest.json.lock');
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: deadPid, host: os.hostname(), nonce: 'dead', at: Date.now() }),
    );
    const reply = await client.commit({ scope: PROJECT, puts: [put('alpha', 'two\n', a.hash)] });
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe(2);
    await expect(fs.access(lock)).rejects.toThrow();
  });
});
