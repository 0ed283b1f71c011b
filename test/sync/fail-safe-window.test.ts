import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOk, startDevice, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

async function devices(count: number): Promise<Device[]> {
  const token = await server.token(`window-${++n}`);
  const out: Device[] = [];
  for (let i = 0; i < count; i++) out.push(await startDevice(String.fromCharCode(97 + i), server, { token }));
  open.push(...out);
  return out;
}

async function seeded(count: number): Promise<[Device, Device]> {
  const [a, b] = (await devices(2)) as [Device, Device];
  for (let i = 0; i < count; i++) await a.write(`n${String(i).padStart(2, '0')}`, `note ${i}\n`);
  expectOk(await a.sync());
  expectOk(await b.sync());
  expect(b.ids()).toHaveLength(count);
  return [a, b];
}

describe('the mass-delete fail-safe counts over a window, in both directions', () => {
  it('60% as two rounds of 30% asks, on the device that deletes and on the one that pulls', async () => {
    const [a, b] = await seeded(40);
    const ids = a.ids();
    for (const id of ids.slice(0, 12)) await a.remove(id);
    expectOk(await a.sync());
    expect((await a.engine.status(a.svc)).error).toBeNull();
    expectOk(await b.sync());
    expect(b.ids()).toHaveLength(28);
    expect((await b.engine.status(b.svc)).error).toBeNull();

    // The second 30%: this computer's deletions are not pushed until the person answers.
    for (const id of ids.slice(12, 24)) await a.remove(id);
    await a.sync();
    const asked = await a.engine.status(a.svc);
    expect(asked.error?.code).toBe('confirm_deletes');
    expect(asked.error?.message).toMatch(
      /12 of 40 notes would be deleted \(12 deleted or missing on this computer/,
    );
    expect(asked.pendingDeletes).toEqual({ count: 12, total: 40, here: 12 });
    await b.sync();
    expect(b.ids()).toHaveLength(28);

    await a.svc.decidePendingDeletes('delete');
    expectOk(await a.sync());
    expect((await a.engine.status(a.svc)).error).toBeNull();
    // b pulled 12 of 40 before: 12 more make 24 of 40 since its last confirmed state.
    await b.sync();
    const pulled = await b.engine.status(b.svc);
    expect(pulled.error?.code).toBe('confirm_deletes');
    expect(pulled.pendingDeletes).toEqual({ count: 12, total: 40, here: 0 });
    expect(b.ids()).toHaveLength(28);
    // Kept on b: uploaded again, for everyone; the answer confirms the state, the next round is clean.
    await b.svc.decidePendingDeletes('keep');
    expectOk(await b.sync());
    expectOk(await b.sync());
    expect((await b.engine.status(b.svc)).error).toBeNull();
    expectOk(await a.sync());
    expect(a.ids()).toEqual(ids.slice(12));
    expect((await a.engine.status(a.svc)).error).toBeNull();
  });

  it('files suddenly missing here are not pushed as deletions; "keep" writes them back', async () => {
    const [a, b] = await seeded(30);
    const dir = a.user.store!.dir;
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.md')).sort();
    for (const f of files.slice(0, 20)) await fs.rm(path.join(dir, f));
    await a.sync();
    const status = await a.engine.status(a.svc);
    expect(status.error?.code).toBe('confirm_deletes');
    expect(status.pendingDeletes).toEqual({ count: 20, total: 30, here: 20 });
    expectOk(await b.sync());
    expect(b.ids()).toHaveLength(30);

    await a.svc.decidePendingDeletes('keep');
    expectOk(await a.sync());
    expect(a.ids()).toHaveLength(30);
    expect(a.get('n00')?.body).toBe('note 0\n');
    expectOk(await a.sync());
    expect((await a.engine.status(a.svc)).error).toBeNull();
    expectOk(await b.sync());
    expect(b.ids()).toHaveLength(30);
  });

  // The copies in objects/ are keyed by content hash: the one a kept note is written back from may
  // name an identical twin's id (a note copied as a template) — it was never written back.
  it('"keep" writes back a note whose content a twin still here shares', async () => {
    const [a, b] = (await devices(2)) as [Device, Device];
    for (let i = 0; i < 30; i++) await a.write(`n${String(i).padStart(2, '0')}`, `note ${i}\n`);
    const dir = a.user.store!.dir;
    await fs.copyFile(path.join(dir, 'n00.md'), path.join(dir, 'twin.md'));
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.get('twin')?.body).toBe('note 0\n');
    await fs.rm(path.join(dir, 'twin.md'));
    for (let i = 1; i < 20; i++) await fs.rm(path.join(dir, `n${String(i).padStart(2, '0')}.md`));
    await a.sync();
    expect((await a.engine.status(a.svc)).error?.code).toBe('confirm_deletes');

    await a.svc.decidePendingDeletes('keep');
    for (let round = 0; round < 2; round++) expectOk(await a.sync());
    expect(a.ids()).toHaveLength(31);
    expect(a.get('twin')?.body).toBe('note 0\n');
    expect(a.get('n00')?.body).toBe('note 0\n');
    expect((await a.engine.status(a.svc)).error).toBeNull();
  });
});
