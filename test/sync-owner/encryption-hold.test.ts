import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import type { StorageAdapter } from '../../server/storage/storage.js';
import { keyringKey } from '../../server/storage-keys.js';
import { cli } from '../sync/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';
import { CLI_ENTRY, spawnNode } from './children.js';
import { arrives, readTrace, rootOnClock, useOwnerScene, writeProjectNote } from './device.js';

/**
 * `memdesk encryption on` (a real CLI child) while the home's sync owner — the composition root
 * `memdesk mcp` builds, here in this process on an injected clock — keeps writing notes: the
 * change holds the home's sync (electron/sync/owner/sync-hold.ts). The mechanism is what is
 * checked: the server stops the change in its middle (at the keyring's publication, after its
 * first rounds, before its sealed ones) while the owner is moved past its debounce with notes
 * waiting; from the change's start to its end the trace holds no round of any other process.
 * Without the hold (no pause, rounds lock taken per round) the owner's round runs right there,
 * and this fails. Then: 立即同步 elsewhere names the change, the progress counts every note up to
 * the total, and every note written before, during and after reaches device B sealed.
 */
const USER = 'enc-hold';

/**
 * The server's real filesystem storage, stopped at the first write of the account's keyring —
 * where `encryption on` publishes it — until `release()`: the change is then certainly between its
 * rounds, with none of the lock a round takes.
 */
function pausedAtKeyringPublish() {
  let reached!: () => void;
  const atPublish = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let paused = false;
  const wrap = (storage: StorageAdapter): StorageAdapter =>
    new Proxy(storage, {
      get(target, name) {
        if (name === 'put')
          return async (...args: Parameters<StorageAdapter['put']>) => {
            if (!paused && args[0] === keyringKey(USER)) {
              paused = true;
              reached();
              await released;
            }
            return target.put(...args);
          };
        const value: unknown = Reflect.get(target, name, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { wrap, atPublish, release };
}

const publish = pausedAtKeyringPublish();
const scene = useOwnerScene(USER, async () => ({
  storage: publish.wrap(new FsStorage(await tempDir('enc-hold-store'))),
}));

describe('encryption on while another process owns sync', { timeout: 600_000 }, () => {
  it('holds the home: no round of the owner from the change’s start to its end, nothing lost, progress to the total', async () => {
    const { a, b, env } = scene;
    const root = a.roots['proj-p']!;
    const owner = await rootOnClock(a.home, { projectRoot: root }, { role: 'mcp', env });
    const { clock, project, sync, ownership, idle } = owner;
    const write = (marker: string) =>
      writeProjectNote(project, clock, { id: marker, summary: marker, body: marker });
    try {
      expect(ownership.owner).toBe(true);
      const before = Array.from({ length: 20 }, (_, i) => `marker-before-${i}`);
      for (const marker of before) await write(marker);
      await clock.advance(3_000, idle); // the debounce: the owner uploads them
      const secrets = await tempDir('enc-hold-secrets');
      const pass = path.join(secrets, 'pass.txt');
      await fs.writeFile(pass, 'correct horse battery staple\n', { mode: 0o600 });

      const traceAtStart = (await readTrace(scene.trace)).length;
      const change = spawnNode(
        CLI_ENTRY,
        [...a.args('proj-p'), 'encryption', 'on', '--passphrase-file', pass],
        env,
        root,
      );
      change.child.stdin!.end('');
      await publish.atPublish;

      // The owner's next heartbeat sees the hold; notes written meanwhile wait past the debounce
      // and two more heartbeats — without the hold, the owner's round would run right here.
      await clock.advance(2_000, idle);
      const during = ['marker-during-0', 'marker-during-1', 'marker-during-2'];
      for (const marker of during) {
        await write(marker);
        await clock.advance(2_000, idle);
      }
      await clock.advance(6_000, idle);
      const atPublish = {
        holder: await fs.readFile(ownerPaths(a.home).holdFile, 'utf8').catch(() => 'no hold'),
        held: sync.held,
        waiting: sync.engine.coordinator.pendingWrites(),
      };

      const refused = await cli([...a.args('proj-p'), 'sync'], root);

      publish.release();
      const code = await change.exited;
      expect(code, change.stderr()).toBe(0);
      expect(change.stdout()).toMatch(/end-to-end encryption is on; \d+ unencrypted objects were removed/);

      // From the change's start to its end: its own rounds only, one after another.
      const lines = (await readTrace(scene.trace)).slice(traceAtStart);
      expect(lines.length).toBeGreaterThanOrEqual(8); // two scopes, synced before and sealed after
      expect(lines.filter((l) => l.pid !== change.pid)).toEqual([]);
      for (let i = 0; i < lines.length; i += 2) {
        expect(lines[i]!.event).toBe('round-start');
        expect(lines[i + 1]).toMatchObject({ pid: lines[i]!.pid, key: lines[i]!.key, event: 'round-end' });
      }
      // Why: the change held the home, the owner saw it and kept its notes waiting.
      expect(atPublish.holder).toContain(`"pid":${change.pid}`);
      expect(atPublish.held).toBe(true);
      expect(atPublish.waiting).toContain(path.join(root, 'MEMORY'));
      // …and 立即同步 elsewhere said so, naming it.
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        new RegExp(`end-to-end encryption is being changed .* in process ${change.pid}`),
      );

      // Progress: every phase, and the upload counted up to its total.
      const progress = change.stderr().split('\n').filter(Boolean);
      expect(progress[0]).toBe('syncing every scope first…');
      expect(progress).toContain('publishing the keyring…');
      const uploads = progress
        .map((l) => /^uploading sealed: (\d+) of (\d+) notes$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [Number(m[1]), Number(m[2])] as const);
      expect(uploads[0]![0]).toBe(0);
      const [done, total] = uploads[uploads.length - 1]!;
      expect(done).toBe(total);
      expect(total).toBeGreaterThanOrEqual(20);
      expect(progress[progress.length - 1]).toBe('removing the unencrypted copy from the server…');

      // The owner resumes on its next heartbeat, with the new key: what waited, and a note
      // written after the change, reach B once B is unlocked.
      await clock.advance(2_000, idle);
      expect(sync.held).toBe(false);
      await write('marker-after');
      const unlock = await cli(
        [...b.args('proj-p'), 'encryption', 'unlock', '--passphrase-file', pass],
        b.roots['proj-p']!,
      );
      expect(unlock.code, unlock.stderr).toBe(0);
      await arrives(b, 'proj-p', 'marker-after', () => clock.advance(3_000, idle));
      const onB = path.join(b.roots['proj-p']!, 'MEMORY');
      const bodies = await Promise.all(
        (await fs.readdir(onB)).map((n) => fs.readFile(path.join(onB, n), 'utf8')),
      );
      for (const marker of [...before, ...during])
        expect(
          bodies.some((body) => body.includes(marker)),
          marker,
        ).toBe(true);
      expect(
        (await readTrace(scene.trace)).slice(traceAtStart + lines.length).some((l) => l.pid === process.pid),
      ).toBe(true);
    } finally {
      publish.release();
      await owner.close();
    }
  });
});
