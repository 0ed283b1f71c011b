import { describe, expect, it } from 'vitest';
import { startDevice, startTestServer, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

async function devices(count: number, plan = 'paid', srv: TestServer = server): Promise<Device[]> {
  const token = await srv.token(`user-${++n}`, plan);
  const out: Device[] = [];
  for (let i = 0; i < count; i++) out.push(await startDevice(String.fromCharCode(97 + i), srv, { token }));
  open.push(...out);
  return out;
}

/** a and b edit the same line of `c`: b ends with a conflict. */
async function conflicted(): Promise<[Device, Device]> {
  const [a, b] = (await devices(2)) as [Device, Device];
  await a.write('c', 'alpha\nbeta\n');
  await a.sync();
  await b.sync();
  await a.write('c', 'alpha A\nbeta\n');
  await b.write('c', 'alpha B\nbeta\n');
  await a.sync();
  await b.sync();
  expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['c']);
  return [a, b];
}

async function settle(...ds: Device[]): Promise<void> {
  for (let i = 0; i < 2; i++) for (const d of ds) await d.sync();
}

describe('conflict resolution', () => {
  it('keep this computer’s: it wins everywhere, the cloud’s is backed up', async () => {
    const [a, b] = await conflicted();
    await b.svc.resolve('c', { keep: 'local' });
    await settle(b, a);
    expect(a.get('c')?.body).toBe('alpha B\nbeta\n');
    expect(b.get('c')?.body).toBe('alpha B\nbeta\n');
    const setAside = (await b.user.backups.list()).filter(
      (e) => e.noteId === 'c' && /cloud’s set aside/.test(e.reason ?? ''),
    );
    expect(setAside).toHaveLength(1);
    expect((await b.user.backups.get(setAside[0]!.id)).content).toContain('alpha A');
    expect(await b.svc.conflicts()).toEqual([]);
  });

  it('take the cloud’s: this computer’s is backed up, the cloud’s stays', async () => {
    const [a, b] = await conflicted();
    await b.svc.resolve('c', { keep: 'cloud' });
    await settle(b, a);
    expect(b.get('c')?.body).toBe('alpha A\nbeta\n');
    expect(a.get('c')?.body).toBe('alpha A\nbeta\n');
    const setAside = (await b.user.backups.list()).filter(
      (e) => e.noteId === 'c' && /took the cloud/.test(e.reason ?? ''),
    );
    expect((await b.user.backups.get(setAside[0]!.id)).content).toContain('alpha B');
  });

  it('keep both: the cloud’s becomes a new note beside it with a new id', async () => {
    const [a, b] = await conflicted();
    const { newId } = await b.svc.resolve('c', { keep: 'both' });
    expect(newId).toBe('c-cloud');
    await settle(b, a);
    for (const d of [a, b]) {
      expect(d.get('c')?.body).toBe('alpha B\nbeta\n');
      expect(d.get('c-cloud')?.body).toBe('alpha A\nbeta\n');
    }
  });

  it('merged by hand: the text the person wrote, both versions backed up', async () => {
    const [a, b] = await conflicted();
    await b.svc.resolve('c', { merged: { summary: 'note c', tags: [], body: 'alpha A and B\nbeta\n' } });
    await settle(b, a);
    expect(a.get('c')?.body).toBe('alpha A and B\nbeta\n');
    const reasons = (await b.user.backups.list()).filter((e) => e.noteId === 'c').map((e) => e.reason ?? '');
    expect(reasons.filter((r) => /merged by hand/.test(r))).toHaveLength(2);
  });

  it('a merge too big for the plan is a conflict', async () => {
    const [a, b] = (await devices(2, 'free')) as [Device, Device];
    const limit = a.svc.limits?.planLimits.noteBytes ?? 32768;
    // Each side's body is under the limit, the merged body (one measure: bytes of body) is over it.
    const half = 'x'.repeat(Math.floor(limit / 2) + 50) + '\n';
    await a.write('big', `top\n${'middle\n'.repeat(3)}bottom\n`);
    await a.sync();
    await b.sync();
    await a.write('big', `top\n${half}${'middle\n'.repeat(3)}bottom\n`);
    await b.write('big', `top\n${'middle\n'.repeat(3)}${half}bottom\n`);
    await a.sync();
    await b.sync();
    expect((await b.svc.conflicts()).map((c) => c.kind)).toEqual(['too_big']);
  });
});

describe('tombstones', () => {
  it('after the tombstone window: unchanged here → deleted (backed up); edited here → a conflict', async () => {
    const [a, b] = (await devices(2)) as [Device, Device];
    await a.write('old-unchanged', 'x\n');
    await a.write('old-edited', 'x\n');
    await a.write('keeper', 'x\n');
    await a.sync();
    await b.sync();
    await a.remove('old-unchanged');
    await a.remove('old-edited');
    await a.sync();
    await b.write('old-edited', 'edited while away\n');
    server.serverNow.t += 91 * 24 * 3600 * 1000;
    try {
      await b.sync();
    } finally {
      server.serverNow.t -= 91 * 24 * 3600 * 1000;
    }
    expect(b.ids()).toEqual(['keeper', 'old-edited']);
    expect(
      (await b.user.backups.list()).some(
        (e) => e.noteId === 'old-unchanged' && /tombstone window/.test(e.reason ?? ''),
      ),
    ).toBe(true);
    expect((await b.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([
      ['old-edited', 'expired_tombstone'],
    ]);
    // Keeping this computer's uploads it again.
    await b.svc.resolve('old-edited', { keep: 'local' });
    await b.sync();
    await a.sync();
    expect(a.get('old-edited')?.body).toBe('edited while away\n');
  });
});

describe('fail-safe', () => {
  it('a pull that would delete more than half of the notes (and more than 10) asks instead', async () => {
    const [a, b, c] = (await devices(3)) as [Device, Device, Device];
    for (let i = 0; i < 14; i++) await a.write(`n${i}`, `${i}\n`);
    await a.sync();
    await b.sync();
    await c.sync();
    for (let i = 0; i < 12; i++) await a.remove(`n${i}`);
    await a.sync();
    // The device that deleted them was asked first (deletions pushed count too), and confirmed.
    expect((await a.engine.status(a.svc)).pendingDeletes).toEqual({ count: 12, total: 14, here: 12 });
    await a.svc.decidePendingDeletes('delete');
    await a.sync();
    await b.sync();
    expect(b.ids()).toHaveLength(14);
    const status = await b.engine.status(b.svc);
    expect(status.error?.code).toBe('confirm_deletes');
    expect(status.error?.message).toMatch(/12 of 14 notes would be deleted \(12 deleted on another device/);
    expect(status.pendingDeletes).toEqual({ count: 12, total: 14, here: 0 });
    // Confirmed: deleted (each backed up).
    await b.svc.decidePendingDeletes('delete');
    await b.sync();
    expect(b.ids()).toEqual(['n12', 'n13']);
    expect((await b.engine.status(b.svc)).error).toBeNull();
    // Another device keeps them instead: they are uploaded again, for everyone.
    await c.sync();
    expect(c.ids()).toHaveLength(14);
    await c.svc.decidePendingDeletes('keep');
    await c.sync();
    await a.sync();
    expect(a.ids()).toHaveLength(14);
  });
});

describe('the server’s quotas and plans', () => {
  it('splits commits by the server’s change quota', async () => {
    const small = await startTestServer({ quotas: { changesPerCommit: 3 } });
    try {
      const token = await small.token('splitter');
      const a = await startDevice('a', small, { token });
      const b = await startDevice('b', small, { token });
      open.push(a, b);
      for (let i = 0; i < 10; i++) await a.write(`s${i}`, `${i}\n`);
      const before = small.requests.length;
      await a.sync();
      const commits = small.requests.slice(before).filter((l) => /commit 200/.test(l));
      expect(commits).toHaveLength(4);
      await b.sync();
      expect(b.ids()).toHaveLength(10);
    } finally {
      await small.close();
    }
  });

  it('a free account over its plan keeps every local note, stops uploading new ones, and says why; deleting works', async () => {
    const tight = await startTestServer({
      entitlements: { paidPlans: ['paid'], free: { notesPerScope: 3, bytesPerNote: 4096 } },
    });
    try {
      const token = await tight.token('freebie', 'free');
      const a = await startDevice('a', tight, { token });
      const b = await startDevice('b', tight, { token });
      open.push(a, b);
      for (let i = 0; i < 5; i++) await a.write(`f${i}`, `${i}\n`);
      await a.write('huge', 'y'.repeat(5000) + '\n');
      await a.sync();
      expect(a.ids()).toHaveLength(6);
      const status = await a.engine.status(a.svc);
      expect(status.plan).toEqual({ name: 'free', notesPerScope: 3, noteBytes: 4096 });
      expect(status.notices.join('\n')).toMatch(/free plan syncs up to 3 notes/);
      expect(status.notices.join('\n')).toMatch(/"huge" is larger than the sync plan allows/);
      await b.sync();
      expect(b.ids()).toHaveLength(3);
      // Deleting always works, and frees room for a held-back note.
      await a.remove(b.ids()[0]!);
      await a.sync();
      await a.sync();
      await b.sync();
      expect(b.ids()).toHaveLength(3);
    } finally {
      await tight.close();
    }
  });
});
