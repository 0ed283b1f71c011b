import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYNC_PROTOCOL_HEADER, SYNC_ROUTES } from '../../shared/sync-protocol.js';
import { expectOk, type Device } from './harness.js';
import { useServerLossScene } from './server-loss-scene.js';

const scene = useServerLossScene('history');
const { account, synced, backupServer, replaceServerData } = scene;

async function noticesOf(d: Device): Promise<string> {
  return (await d.engine.status(d.svc)).notices.join('\n');
}

describe('the cloud losing history is not the user deleting notes', () => {
  it('a wiped server: nothing is deleted on the devices, what the cloud lost is uploaded again, and the status says so', async () => {
    const notes = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`w${i}`, `wiped ${i}\n`]));
    const [a, b] = (await synced(notes, 'a', 'b')).devices;
    expect(b.ids()).toHaveLength(5);

    await replaceServerData(null);
    await b.write('w0', 'edited on b after the wipe\n');
    expectOk(await b.sync());
    expect(b.ids()).toHaveLength(5);
    expect(b.svc.lastRound?.historyReset).toBe(true);
    expect(await noticesOf(b)).toMatch(
      /lost part of its history .*nothing was deleted here; 5 note\(s\) it no longer had are uploaded again/,
    );
    expect(
      (await b.user.backups.list()).filter((e) => /deleted on another device|tombstone/.test(e.reason ?? '')),
    ).toEqual([]);

    // a catches up: its notes stay; w0 differs from what a last synced, and after a lost history
    // nobody can tell which side is newer, so the person chooses (nothing is replaced silently).
    expectOk(await a.sync());
    expect(a.ids()).toHaveLength(5);
    expect(a.get('w0')?.body).toBe('wiped 0\n');
    expect((await a.svc.conflicts()).map((x) => [x.id, x.kind])).toEqual([['w0', 'no_base']]);
    await a.svc.resolve('w0', { keep: 'cloud' });
    expectOk(await a.sync());
    expect(a.get('w0')?.body).toBe('edited on b after the wipe\n');
    // The next rounds are ordinary again.
    expectOk(await b.sync());
    expect(b.svc.lastRound?.historyReset).toBe(false);
  });

  it('a server restored from an older backup whose version then catches up: the device notices, uploads what was lost, pulls what is new', async () => {
    const { device } = await account();
    const a = await device('a');
    const b = await device('b');
    for (const id of ['r1', 'r2', 'r3']) await a.write(id, `${id} first\n`);
    expectOk(await a.sync()); // version 1
    const backup = await backupServer();
    await a.write('r4', 'r4 after the backup\n');
    await a.write('r5', 'r5 after the backup\n');
    expectOk(await a.sync()); // version 2
    await a.write('r1', 'r1 edited after the backup\n');
    expectOk(await a.sync()); // version 3
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);

    // Restored to version 1, then another device commits twice: the version is 3 again.
    await replaceServerData(backup);
    const c = await device('c');
    expectOk(await c.sync());
    expect(c.ids()).toEqual(['r1', 'r2', 'r3']);
    await c.write('x', 'x from c\n');
    expectOk(await c.sync());
    await c.write('y', 'y from c\n');
    expectOk(await c.sync());

    expectOk(await b.sync());
    expect(b.svc.lastRound?.historyReset).toBe(true);
    // Nothing deleted, nothing reverted here; the new notes arrived.
    expect(b.ids()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'x', 'y']);
    expect(b.get('r1')?.body).toBe('r1 edited after the backup\n');
    const notices = await noticesOf(b);
    expect(notices).toMatch(/2 note\(s\) it no longer had are uploaded again/);
    expect(notices).toMatch(/1 note\(s\) whose cloud version differs wait for you as conflicts/);
    // The cloud holds an older r1: the person chooses (this computer's is the newer one).
    expect((await b.svc.conflicts()).map((x) => [x.id, x.kind])).toEqual([['r1', 'no_base']]);
    await b.svc.resolve('r1', { keep: 'local' });
    expectOk(await b.sync());

    expectOk(await c.sync());
    expect(c.ids()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'x', 'y']);
    expect(c.get('r1')?.body).toBe('r1 edited after the backup\n');
    expectOk(await a.sync());
    expect(a.ids()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'x', 'y']);
    expect(a.get('r1')?.body).toBe('r1 edited after the backup\n');
  });

  // Soak seed 113273: a round that lacked a body it needed asked for a full listing next time by
  // forgetting the version it had seen; the server was wiped meanwhile, and that listing — asked
  // without a version — could not say so: the notes it lacked read as deleted long ago.
  it('a full listing asked for after a missing copy still notices a wiped server: nothing is deleted here', async () => {
    const notes = { k0: 'kept 0\n', k1: 'kept 1\n', k2: 'kept 2\n' };
    const [a, b] = (await synced(notes, 'a', 'b')).devices;
    await a.write('k0', 'edited on a\n');
    expectOk(await a.sync());
    // b's person edits k0 while b's round runs: the cloud's k0 is not pulled over it; its copy, kept
    // for the next round, then goes missing (a baseline copy deleted): that round has nothing to
    // merge with, and asks for a full listing next time.
    await b.write('k2', 'edited on b\n');
    b.svc.hooks.afterCommit = async () => {
      await b.write('k0', 'edited on b during its round\n');
    };
    expectOk(await b.sync());
    b.svc.hooks.afterCommit = undefined;
    await fs.rm(b.svc.baselines.objectsDir, { recursive: true, force: true });
    expectOk(await b.sync());
    const state = JSON.parse(await fs.readFile(path.join(b.svc.baselines.dir, 'state.json'), 'utf8'));
    expect(state.manifest).toMatchObject({ version: null, lastSeen: { version: expect.any(Number) } });

    await replaceServerData(null);
    expectOk(await b.sync());
    expect(b.svc.lastRound?.historyReset).toBe(true);
    expect(b.ids()).toEqual(['k0', 'k1', 'k2']);
    expect((await b.svc.conflicts()).filter((c) => c.kind === 'expired_tombstone')).toEqual([]);
    expect(await noticesOf(b)).toMatch(/lost part of its history .*nothing was deleted here/);
  });

  it('a client that sends no head (an older app) is answered as before', async () => {
    const { token, device } = await account();
    const a = await device('a');
    await a.write('o1', 'old client\n');
    expectOk(await a.sync());
    const post = async (body: object): Promise<Record<string, unknown>> => {
      const res = await fetch(scene.server.url + SYNC_ROUTES.snapshot, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          [SYNC_PROTOCOL_HEADER]: '2',
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const full = await post({ scope: { kind: 'user' }, sinceVersion: null });
    expect(full.status).toBe('full');
    expect(typeof full.head).toBe('string');
    const since = await post({ scope: { kind: 'user' }, sinceVersion: full.version });
    expect(since.status).toBe('unchanged');
    const other = await post({ scope: { kind: 'user' }, sinceVersion: full.version, sinceHead: 'another' });
    expect(other).toMatchObject({ status: 'full', historyReset: true });
  });
});
