import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOk, startDevice, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

describe('content is not identity', () => {
  it('identical twins (a note copied as a template) reach a new device as two notes, by full listing and by changes', async () => {
    const token = await server.token('twins');
    const a = await startDevice('a', server, { token });
    open.push(a);
    await a.write('x', 'template line\n', { summary: 'same', tags: ['t'] });
    // `cp x.md y.md`: the copy names "x" in its frontmatter; the file name wins.
    const dir = a.user.store!.dir;
    await fs.copyFile(path.join(dir, 'x.md'), path.join(dir, 'y.md'));
    expectOk(await a.sync());
    expect(a.ids()).toEqual(['x', 'y']);
    expect(a.get('y')?.hash).toBe(a.get('x')?.hash);

    const b = await startDevice('b', server, { token });
    open.push(b);
    expectOk(await b.sync()); // full listing
    expect(b.ids()).toEqual(['x', 'y']);
    expect(b.get('y')?.body).toBe('template line\n');
    expect(b.svc.notices).toEqual([]);

    // Incremental: another twin; b already has this content under other ids.
    await fs.copyFile(path.join(dir, 'x.md'), path.join(dir, 'z.md'));
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['x', 'y', 'z']);
    expect(b.get('z')?.summary).toBe('same');
    expect(b.svc.notices).toEqual([]);
    // Still twins after an edit of one of them on b: only that one changes on a.
    await b.write('y', 'edited on b\n');
    expectOk(await b.sync());
    expectOk(await a.sync());
    expect(a.get('y')?.body).toBe('edited on b\n');
    expect(a.get('x')?.body).toBe('template line\n');
    expect(a.get('z')?.body).toBe('template line\n');
  });
});
