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

  // Soak seed 40937: the copies in objects/ are keyed by content hash only, and a copy may name a
  // twin's id in its frontmatter — taking "the cloud's" wrote it over that twin.
  it('taking the cloud’s side of a conflict whose cloud version is a twin’s content writes this note, not the twin', async () => {
    const token = await server.token('twin-conflict');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('x', 'template line\n', { summary: 'same' });
    expectOk(await a.sync());
    expectOk(await b.sync());
    const dir = b.user.store!.dir;
    await fs.copyFile(path.join(dir, 'x.md'), path.join(dir, 'y.md')); // y: x's content, x's id inside
    expectOk(await b.sync());

    await a.write('x', 'template line\nedited on a\n');
    await a.write('y', 'a y of a’s own\n');
    expectOk(await a.sync());
    expect((await a.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([['y', 'no_base']]);
    expect((await a.svc.conflict('y')).cloud?.id).toBe('y');
    await a.svc.resolve('y', { keep: 'cloud' });
    expect(a.get('y')?.body).toBe('template line\n');
    expect(a.get('x')?.body).toBe('template line\nedited on a\n');

    expectOk(await a.sync());
    expectOk(await b.sync());
    for (const d of [a, b]) {
      expect(d.get('x')?.body).toBe('template line\nedited on a\n');
      expect(d.get('y')?.body).toBe('template line\n');
      expect(await d.svc.conflicts()).toEqual([]);
    }
  });
});
