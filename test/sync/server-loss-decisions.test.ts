import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy.js';
import { expectOk, type Device } from './harness.js';
import { useServerLossScene } from './server-loss-scene.js';

/**
 * The cloud losing its history must not undo what a person decided on a device: the root causes
 * of the soak's server-loss seeds (docs/sync-engine.md, "What the soak found"), each with real
 * devices and the real server, its data wiped or restored from a copy as an operator does it.
 */
const scene = useServerLossScene('loss');
const { account, synced, backupServer, replaceServerData } = scene;

/** The person on `decider` keeps the cloud's side of x; both devices then hold exactly `ids`, nothing left to decide. */
async function letTheCloudStand(decider: Device, other: Device, ids: string[]): Promise<void> {
  await decider.svc.resolve('x', { keep: 'cloud' });
  expectOk(await decider.sync());
  expectOk(await other.sync());
  expect(decider.ids()).toEqual(ids);
  expect(other.ids()).toEqual(ids);
  expect(await decider.svc.conflicts()).toEqual([]);
}

class SimulatedCrash extends Error {}

/**
 * A new account's devices a, b and c, b's commit answers dropped (after the server committed)
 * until `pushXAnswerLost()` has run: b writes x and pushes it (committed, the answer lost), then a
 * pulls it. The proxy closes when `play` returns.
 */
async function withCommitAnswersLostOnB(
  play: (d: { a: Device; b: Device; c: Device; pushXAnswerLost: () => Promise<void> }) => Promise<void>,
): Promise<void> {
  let drop = true;
  const proxy = await startFaultProxy(scene.server.url, ({ url }) =>
    drop && url.includes('commit') ? 'drop' : 'pass',
  );
  try {
    const { device } = await account();
    const a = await device('a');
    const b = await device('b', undefined, proxy);
    const c = await device('c');
    const pushXAnswerLost = async () => {
      await b.write('x', 'created on b\n');
      expect((await b.sync()).outcome).toBe('transient'); // committed, the answer lost
      drop = false;
      expectOk(await a.sync());
      expect(a.get('x')?.body).toBe('created on b\n');
    };
    await play({ a, b, c, pushXAnswerLost });
  } finally {
    await proxy.close();
  }
}

describe('a person’s decisions outlive the cloud losing its history', () => {
  // Soak seeds 282, 349, 441, 462, 472, 618, 685, 850.
  it('a note deleted here after the server was wiped stays deleted when another device uploads it again', async () => {
    const [a, b] = (await synced({ x: 'kept on b, deleted on a\n', y: 'untouched\n' }, 'a', 'b')).devices;

    await replaceServerData(null);
    await a.remove('x');
    expectOk(await a.sync()); // the cloud lost x: nothing to delete there yet
    expect(a.svc.lastRound?.historyReset).toBe(true);
    expectOk(await b.sync()); // b still holds x and uploads what the cloud lost
    expectOk(await a.sync()); // a sees the version it deleted again: the delete goes out
    expectOk(await b.sync());

    expect(a.ids()).toEqual(['y']);
    expect(b.ids()).toEqual(['y']);
    expect(await a.svc.conflicts()).toEqual([]);
    expect(await b.svc.conflicts()).toEqual([]);
  });

  // Soak seed 49555: the push's answer lost, the only record on b that the cloud held x was its
  // journal — the loss of history left nothing to remember the delete by, and x came back.
  it('a new note pushed with its answer lost, then the server wiped and the note deleted here: it stays deleted when a device that pulled it uploads it again', async () => {
    await withCommitAnswersLostOnB(async ({ a, b, pushXAnswerLost }) => {
      await a.write('y', 'untouched\n');
      expectOk(await a.sync());
      await pushXAnswerLost();

      await replaceServerData(null);
      await b.remove('x');
      expectOk(await b.sync()); // the cloud lost x: nothing to delete there yet
      expect(b.svc.lastRound?.historyReset).toBe(true);
      expectOk(await a.sync()); // a uploads what the cloud lost, x with it
      expectOk(await b.sync()); // b sees the version it deleted again: the delete goes out
      expectOk(await a.sync());

      expect(a.ids()).toEqual(['y']);
      expect(b.ids()).toEqual(['y']);
      expect(await a.svc.conflicts()).toEqual([]);
      expect(await b.svc.conflicts()).toEqual([]);
    });
  });

  // Soak seed 157119: as 49555, but the push was the account's first (its round started from the
  // empty version 0, which every history shares) and another device counted the wiped server back
  // up before b's next round: b could not tell the history was lost, and x came back.
  it('a first push with its answer lost, the server wiped and counted up again, the note deleted here: it stays deleted when a device that pulled it uploads it again', async () => {
    await withCommitAnswersLostOnB(async ({ a, b, c, pushXAnswerLost }) => {
      await pushXAnswerLost();

      await replaceServerData(null);
      await c.write('z', 'written after the wipe\n');
      expectOk(await c.sync()); // the wiped server counts up again
      await b.remove('x');
      expectOk(await b.sync()); // the cloud has no record of x: nothing to delete there yet
      expectOk(await a.sync()); // a uploads what the cloud lost, x with it
      expectOk(await b.sync()); // b sees the version it pushed and deleted: the delete goes out
      expectOk(await a.sync());
      expectOk(await c.sync());

      for (const d of [a, b, c]) {
        expect(d.ids()).toEqual(['z']);
        expect(await d.svc.conflicts()).toEqual([]);
      }
    });
  });

  // Soak seeds 35, 37, 47, 81 (found by the first soak of the fixes above).
  it('a file held (malformed) while the device notices the lost history is not taken for a delete: fixed, it is uploaded again', async () => {
    const [a, b] = (await synced({ x: 'x body\n', y: 'y body\n' }, 'a', 'b')).devices;

    await replaceServerData(null);
    const file = `${a.user.store!.dir}/x.md`;
    const good = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, good.replace('"summary"', '"summary" oops'));
    expectOk(await a.sync());
    await fs.writeFile(file, good);
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(a.ids()).toEqual(['x', 'y']);
    expect(b.ids()).toEqual(['x', 'y']);
  });

  // Soak seed 31988.
  it('a file held while the device notices the lost history, fixed after the cloud deleted a version it never had: a conflict, not uploaded again', async () => {
    const [a, b] = (await synced({ x: 'first\n', y: 'untouched\n' }, 'a', 'b')).devices;

    await replaceServerData(null);
    await a.write('x', 'first\nedited on a\n');
    expectOk(await a.sync()); // uploads its edit, which the cloud lost
    const file = `${b.user.store!.dir}/x.md`;
    const good = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, good.replace('"summary"', '"summary" oops'));
    expectOk(await b.sync()); // b notices the loss while x is held
    await a.remove('x');
    expectOk(await a.sync()); // the cloud deletes a's version, which b never had
    await fs.writeFile(file, good);
    expectOk(await b.sync());
    // b's copy is the version before the loss: b's person decides (it was uploaded silently, and
    // the note a's person deleted came back everywhere).
    expect((await b.svc.conflicts()).map((k) => k.id)).toEqual(['x']);
    expectOk(await a.sync());
    expect(a.ids()).toEqual(['y']);
    await letTheCloudStand(b, a, ['y']);
  });

  // Soak seeds 142, 325.
  it('a note deleted here while the restored cloud holds an older version: a conflict that lasts until the person decides, never a silent return', async () => {
    const { device } = await account();
    const a = await device('a');
    const b = await device('b');
    await a.write('x', 'first\nremoved later\n');
    expectOk(await a.sync());
    const backup = await backupServer();
    await a.write('x', 'first\nsecond\n');
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.get('x')?.body).toBe('first\nsecond\n');

    await replaceServerData(backup); // the cloud holds x's first version again
    await b.remove('x');
    for (let round = 0; round < 2; round++) {
      expectOk(await b.sync());
      expect(b.get('x')).toBeUndefined();
      expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['x']);
    }
    await b.svc.resolve('x', { keep: 'local' });
    expectOk(await b.sync());
    expect(await b.svc.conflicts()).toEqual([]);
    // a still holds the newer version, and the cloud's delete replaced the older one: a cannot
    // tell whether b saw its version, so its person decides too (nothing uploaded silently).
    expectOk(await a.sync());
    expect(a.get('x')?.body).toBe('first\nsecond\n');
    expect((await a.svc.conflicts()).map((c) => c.id)).toEqual(['x']);
    await a.svc.resolve('x', { keep: 'cloud' });
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.get('x')).toBeUndefined();
    expect(a.get('x')).toBeUndefined();
    expect(await a.svc.conflicts()).toEqual([]);
  });

  // Soak seed 462.
  it('a note unchanged here that the restored cloud deleted from another version: a conflict that lasts until the person decides, never a silent upload', async () => {
    const [a, b] = (await synced({ x: 'first\n' }, 'a', 'b')).devices;
    const backup = await backupServer();
    await b.write('z', 'from b, lost with the history\n');
    expectOk(await b.sync());

    await replaceServerData(backup);
    // a edits x, then deletes it: the cloud's delete replaced a's edit, which b never saw.
    await a.write('x', 'first\nsecond\n');
    expectOk(await a.sync());
    await a.remove('x');
    expectOk(await a.sync());

    for (let round = 0; round < 2; round++) {
      expectOk(await b.sync());
      expect(b.get('x')?.body).toBe('first\n');
      expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['x']);
    }
    expectOk(await a.sync());
    expect(a.ids()).toEqual(['z']); // z, which the cloud lost, came back; x did not
    await letTheCloudStand(b, a, ['z']);
  });

  // Soak seeds 33419, 41420 (the same after a wipe: b's unchanged copy was uploaded over a's delete).
  it('a conflict raised over the restored cloud’s other version stays while the cloud deletes that version: the old copy here is not uploaded again', async () => {
    const [a, b] = (await synced({ x: 'first\nremoved on a\n' }, 'a', 'b')).devices;
    const backup = await backupServer();
    await b.write('z', 'from b, lost with the history\n');
    expectOk(await b.sync());

    await replaceServerData(backup);
    await a.write('x', 'first\nsecond\n'); // a's person removed a line b's old copy still has
    expectOk(await a.sync());
    expectOk(await b.sync()); // b cannot place a's version against its old copy: asked
    expect((await b.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([['x', 'no_base']]);
    await a.remove('x'); // then a's person deletes the note
    expectOk(await a.sync());

    for (let round = 0; round < 2; round++) {
      expectOk(await b.sync());
      expect(b.get('x')?.body).toBe('first\nremoved on a\n');
      expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['x']);
    }
    expectOk(await a.sync());
    expect(a.ids()).toEqual(['z']); // b's old copy of x did not come back
    await letTheCloudStand(b, a, ['z']);
  });

  // Soak seed 95850 (of the soak of 58104ee).
  it('a conflict raised over the restored cloud’s old copy, then the note deleted here: still asked, not pulled back; letting it go deletes it everywhere', async () => {
    const [a, b] = (await synced({ x: 'first\n' }, 'a', 'b')).devices;
    const backup = await backupServer();
    await b.write('x', 'first\nedited on b\n');
    expectOk(await b.sync());

    await replaceServerData(backup);
    expectOk(await b.sync()); // b cannot place its version against the restored old copy: asked
    expect((await b.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([['x', 'no_base']]);
    await b.remove('x'); // b's person deletes the note before answering
    for (let round = 0; round < 2; round++) {
      expectOk(await b.sync());
      expect(b.get('x')).toBeUndefined(); // it came back as the cloud's old copy
      expect((await b.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([['x', 'both_changed']]);
    }
    await b.svc.resolve('x', { keep: 'local' }); // let it go
    expectOk(await b.sync());
    expectOk(await a.sync());
    expect(a.ids()).toEqual([]);
    expect(b.ids()).toEqual([]);
    expect(await b.svc.conflicts()).toEqual([]);
  });

  // Soak seed 33700.
  it('a conflict over a note deleted here is shown and resolved without the note one case apart: that one is another note', async () => {
    const [a, b] = (await synced({ Nx: 'first\n', y: 'untouched\n' }, 'a', 'b')).devices;

    await replaceServerData(null);
    await b.remove('Nx');
    await b.write('nx', 'another note, one case apart\n');
    await a.write('Nx', 'first\nedited on a\n');
    expectOk(await a.sync()); // a uploads what the cloud lost, with its edit
    expectOk(await b.sync()); // deleted here, another version there: asked
    expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['Nx']);
    const detail = await b.svc.conflict('Nx');
    expect(detail.local).toBeNull();
    expect(detail.cloud?.body).toBe('first\nedited on a\n');

    await b.svc.resolve('Nx', { keep: 'both' }); // a's version beside, under a new id
    expect(b.get('nx')?.body).toBe('another note, one case apart\n');
    for (let round = 0; round < 2; round++) {
      expectOk(await b.sync());
      expectOk(await a.sync());
    }
    expect(a.ids()).toEqual(['Nx-cloud', 'nx', 'y']);
    expect(b.ids()).toEqual(['Nx-cloud', 'nx', 'y']);
    expect(a.get('nx')?.body).toBe('another note, one case apart\n');
    expect(a.get('Nx-cloud')?.body).toBe('first\nedited on a\n');
  });

  // Soak seeds 34310, 34595.
  it('the version deleted here, uploaded again by a person who kept it over another version when asked: a conflict here, not deleted again', async () => {
    const {
      devices: [a, b],
      device,
    } = await synced({ x: 'first\n', y: 'untouched\n' }, 'a', 'b');

    await replaceServerData(null);
    await a.remove('x');
    expectOk(await a.sync()); // the cloud lost x: a remembers its delete
    const c = await device('c');
    await c.write('x', 'written on c, which never had x\n');
    expectOk(await c.sync());
    expectOk(await b.sync()); // b's copy against c's note: asked
    expect((await b.svc.conflicts()).map((k) => [k.id, k.kind])).toEqual([['x', 'no_base']]);
    await b.svc.resolve('x', { keep: 'local' }); // b's person keeps b's copy over c's note
    expectOk(await b.sync());

    expectOk(await a.sync()); // the version deleted here is back, kept by a person: asked
    expect((await a.svc.conflicts()).map((k) => k.id)).toEqual(['x']);
    expectOk(await b.sync());
    expect(b.get('x')?.body).toBe('first\n');
    await a.svc.resolve('x', { keep: 'cloud' });
    expectOk(await a.sync());
    expect(a.get('x')?.body).toBe('first\n');
    expect(await a.svc.conflicts()).toEqual([]);
  });

  // Soak seed 20250.
  it('after the person decided on a note deleted here while the cloud lost its history, a version another device writes later arrives: not the same conflict again', async () => {
    const [a, b] = (await synced({ x: 'first\n' }, 'a', 'b')).devices;

    await b.write('x', 'first\nedited on b\n');
    await replaceServerData(null);
    await a.remove('x');
    expectOk(await a.sync()); // the cloud lost x: a remembers the version it deleted
    expectOk(await b.sync()); // b uploads its edited x again
    expectOk(await a.sync());
    expect((await a.svc.conflicts()).map((c) => c.id)).toEqual(['x']);
    await a.svc.resolve('x', { keep: 'both' }); // x stays deleted, b's version is kept as x-cloud
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['x-cloud']);

    // b writes x anew: a version the person on a never saw, not the one they decided on.
    await b.write('x', 'written anew on b\n');
    expectOk(await b.sync());
    for (let round = 0; round < 2; round++) expectOk(await a.sync());
    expect(await a.svc.conflicts()).toEqual([]);
    expect(a.get('x')?.body).toBe('written anew on b\n');
    expect(a.ids()).toEqual(['x', 'x-cloud']);
  });

  // Soak seed 20195 (with a fix of 20250 that forgot the delete once the person had decided); since
  // seeds 30314/32427 the version deleted here, uploaded again over the cloud's delete, is asked
  // about (c's person kept it when asked): never restored silently, nor deleted silently.
  it('the version deleted here comes back from a device that held it after the person decided: the person here is asked, it is not restored', async () => {
    const [a, b, c] = (await synced({ x: 'first\n' }, 'a', 'b', 'c')).devices;

    await replaceServerData(null);
    await b.write('x', 'first\nedited on b\n');
    expectOk(await b.sync()); // the wiped cloud gets b's version
    await a.remove('x');
    expectOk(await a.sync());
    expect((await a.svc.conflicts()).map((conflict) => conflict.id)).toEqual(['x']);
    await a.svc.resolve('x', { keep: 'both' }); // x stays deleted here, b's version is kept as x-cloud
    // c still holds the version a deleted; it cannot place the cloud's and keeps both too.
    expectOk(await c.sync());
    expect((await c.svc.conflicts()).map((conflict) => conflict.id)).toEqual(['x']);
    await c.svc.resolve('x', { keep: 'both' });
    expectOk(await a.sync()); // a's delete of x and its x-cloud go out
    expectOk(await c.sync()); // c uploads its x (the version a deleted) over the delete

    for (let round = 0; round < 2; round++) {
      expectOk(await a.sync());
      expect(a.get('x')).toBeUndefined();
      expect((await a.svc.conflicts()).map((conflict) => conflict.id)).toEqual(['x']);
    }
    await a.svc.resolve('x', { keep: 'local' }); // deleted it stays
    expectOk(await a.sync());
    expect(a.get('x')).toBeUndefined();
    expectOk(await b.sync());
    expectOk(await c.sync());
    for (const d of [a, b, c]) {
      expect(d.ids()).toEqual(['x-cloud']);
      expect(await d.svc.conflicts()).toEqual([]);
    }
  });

  // Soak seeds 30314, 32427.
  it('the version deleted here, uploaded again after the cloud recorded a delete (a person keeping it when asked), is a conflict here, not deleted again', async () => {
    const { device } = await account();
    const a = await device('a');
    const b = await device('b');
    const c = await device('c');
    await a.write('x', 'first\n');
    await a.write('y', 'untouched\n');
    for (const d of [a, b, c]) expectOk(await d.sync());

    await replaceServerData(null);
    await b.remove('x');
    await a.write('x', 'first\nedited on a\n');
    expectOk(await a.sync()); // uploads its edit, which the cloud lost
    expectOk(await b.sync()); // deleted here, another version there: b's person is asked
    expect((await b.svc.conflicts()).map((k) => k.id)).toEqual(['x']);
    await a.remove('x');
    expectOk(await a.sync()); // the cloud records a delete (of a's version)
    expectOk(await b.sync()); // nothing differs any more: b's question is gone
    expect(await b.svc.conflicts()).toEqual([]);
    // c still holds the first version; the cloud deleted another one: c's person is asked, keeps it.
    expectOk(await c.sync());
    expect((await c.svc.conflicts()).map((k) => k.id)).toEqual(['x']);
    await c.svc.resolve('x', { keep: 'local' });
    expectOk(await c.sync());

    // The version b deleted is back, over the cloud's delete: b's person decides, nothing is
    // deleted silently (it was: c's decision reverted, surviving only in backups).
    expectOk(await b.sync());
    expect(b.get('x')).toBeUndefined();
    expect((await b.svc.conflicts()).map((k) => k.id)).toEqual(['x']);
    expectOk(await c.sync());
    expect(c.get('x')?.body).toBe('first\n');
    await b.svc.resolve('x', { keep: 'cloud' });
    for (const d of [b, a, c]) expectOk(await d.sync());
    for (const d of [a, b, c]) expect(d.get('x')?.body).toBe('first\n');
    for (const d of [a, b, c]) expect(await d.svc.conflicts()).toEqual([]);
  });

  // Soak seed 86142 (of the 10,000-seed soak of f021a65).
  it('killed after pulling a note and before saving, then the server wiped and the note deleted on another device in the new history: the copy goes, it is not uploaded again', async () => {
    const {
      devices: [a, b],
      device,
    } = await synced({ y: 'untouched\n' }, 'a', 'b');
    await a.write('x', 'created on a\n');
    expectOk(await a.sync());
    await a.write('z', 'one more version, so that c saw a later one than the new history reaches\n');
    expectOk(await a.sync());
    expectOk(await b.sync());
    const c = await device('c');
    c.svc.hooks.point = async (name) => {
      if (name === 'save:state') throw new SimulatedCrash('killed before the baseline was saved');
    };
    expect((await c.sync()).outcome).toBe('transient'); // x written here, the baseline not saved
    expect(c.get('x')?.body).toBe('created on a\n');
    await c.close();

    await replaceServerData(null);
    expectOk(await b.sync()); // uploads what the cloud lost, x with it
    await a.remove('x');
    // a's base for x is the version b uploaded again: the delete replaces exactly the one c holds.
    expectOk(await a.sync()); // the person on a deletes x in the cloud's new history
    const c2 = await device('c2', c.home);
    expectOk(await c2.sync());
    expect(c2.svc.lastRound?.historyReset).toBe(true);
    // c's copy is exactly the version deleted: it goes too (it was uploaded as new, and x was back).
    expect(c2.ids()).toEqual(['y', 'z']);
    for (const d of [a, b]) expectOk(await d.sync());
    for (const d of [a, b, c2]) expect(d.ids()).toEqual(['y', 'z']);
    for (const d of [a, b, c2]) expect(await d.svc.conflicts()).toEqual([]);
  });

  // Soak seed 129505 (of the 10,000-seed soak of e67bb6c).
  it('killed in its first round after its commit, then the server wiped and counted up again, and the note deleted here: the delete holds when another device uploads it again', async () => {
    const {
      devices: [a, b],
      device,
    } = await synced({ y: 'untouched\n' }, 'a', 'b');
    const c = await device('c');
    await c.write('z', 'created on c\n');
    c.svc.hooks.point = async (name) => {
      if (name === 'save:state') throw new SimulatedCrash('killed before the baseline was saved');
    };
    expect((await c.sync()).outcome).toBe('transient'); // z is in the cloud; c saved no state
    await c.close();
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['y', 'z']);

    await replaceServerData(null);
    // The new history counts up to the version c's round started from.
    await a.write('w', 'after the wipe\n');
    expectOk(await a.sync());
    const c2 = await device('c2', c.home);
    await c2.remove('z');
    expectOk(await c2.sync());
    expect(c2.svc.lastRound?.historyReset).toBe(true);
    expectOk(await b.sync()); // uploads what the cloud lost, z with it
    for (const d of [c2, a, b, c2]) expectOk(await d.sync());
    for (const d of [a, b, c2]) expect(d.ids()).toEqual(['w', 'y']);
  });

  // Soak seed 128228 (of the 10,000-seed soak of e67bb6c).
  it('a note the cloud lost whose upload is refused (a case twin there) and then deleted here: the delete holds when another device uploads it again', async () => {
    const {
      devices: [a, b],
      device,
    } = await synced({ twin: 'one version\n', y: 'untouched\n' }, 'a', 'b');
    await replaceServerData(null);
    const c = await device('c');
    await c.write('Twin', 'a case twin, written after the wipe\n');
    expectOk(await c.sync());
    expectOk(await b.sync()); // twin stays here: the cloud holds its case twin
    expect(b.svc.lastRound?.historyReset).toBe(true);
    expect(b.ids()).toEqual(['twin', 'y']);
    await b.remove('twin');
    expectOk(await b.sync());
    await c.remove('Twin');
    expectOk(await c.sync());
    expectOk(await a.sync()); // a's twin, the version b deleted, goes up again
    for (const d of [b, a, c, b]) expectOk(await d.sync());
    for (const d of [a, b, c]) expect(d.ids()).toEqual(['y']);
  });

  // Soak seeds 351, 835.
  it('killed after pulling a note and before saving, then the server restored from an older backup and counted up to that version again: the pulled note is uploaded again, not deleted', async () => {
    const {
      devices: [a, b],
      device,
    } = await synced({ old: 'in the backup\n' }, 'a', 'b');
    const backup = await backupServer();
    await a.write('fresh', 'after the backup\n');
    expectOk(await a.sync());
    b.svc.hooks.point = async (name) => {
      if (name === 'save:state') throw new SimulatedCrash('killed before the baseline was saved');
    };
    expect((await b.sync()).outcome).toBe('transient');
    expect(b.get('fresh')?.body).toBe('after the backup\n');
    await b.close();

    await replaceServerData(backup);
    // A new device commits: the cloud is at the version b's killed round saw, with another history.
    const c = await device('c');
    await c.write('other', 'from c\n');
    expectOk(await c.sync());
    const b2 = await device('b2', b.home);
    expectOk(await b2.sync());
    expect(b2.ids()).toEqual(['fresh', 'old', 'other']);
    expect(b2.svc.lastRound?.historyReset).toBe(true);
    expectOk(await a.sync());
    expectOk(await c.sync());
    expect(a.ids()).toEqual(['fresh', 'old', 'other']);
    expect(c.ids()).toEqual(['fresh', 'old', 'other']);
  });
});
