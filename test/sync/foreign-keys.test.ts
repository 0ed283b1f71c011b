import { describe, expect, it } from 'vitest';
import type { Note } from '../../shared/note.js';
import { expectOk, startDevice, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

async function edit(
  d: Device,
  id: string,
  body: string,
  extra: Record<string, unknown> | undefined,
): Promise<void> {
  const current = d.get(id)!;
  const note: Note = {
    id,
    summary: current.summary,
    tags: current.tags,
    body,
    createdAt: current.createdAt,
    updatedAt: d.clock.now(),
    ...(extra ? { extra } : {}),
  };
  await d.user.store!.write(note);
}

describe('foreign frontmatter keys (an agent’s own) are the person’s data', () => {
  it('a merge keeps both sides’ keys, key by key, and a key removed on one side goes', async () => {
    const token = await server.token('foreign-keys');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('k', 'one\ntwo\nthree\nfour\n');
    expectOk(await a.sync());
    expectOk(await b.sync());

    await edit(a, 'k', 'one A\ntwo\nthree\nfour\n', { agent: 'claude', confidence: 0.8 });
    await edit(b, 'k', 'one\ntwo\nthree\nfour B\n', { reviewedBy: 'ana' });
    expectOk(await a.sync());
    expectOk(await b.sync());
    expectOk(await a.sync());
    for (const d of [a, b]) {
      expect(d.get('k')?.body).toBe('one A\ntwo\nthree\nfour B\n');
      expect(d.get('k')?.extra).toEqual({ agent: 'claude', confidence: 0.8, reviewedBy: 'ana' });
    }

    // a drops `agent` and changes `confidence`; b edits another line: both changes survive the merge.
    await edit(a, 'k', 'one A\ntwo A\nthree\nfour B\n', { confidence: 0.9, reviewedBy: 'ana' });
    await edit(b, 'k', 'one A\ntwo\nthree\nfour BB\n', {
      agent: 'claude',
      confidence: 0.8,
      reviewedBy: 'ana',
    });
    expectOk(await a.sync());
    expectOk(await b.sync());
    expectOk(await a.sync());
    for (const d of [a, b]) {
      expect(d.get('k')?.body).toBe('one A\ntwo A\nthree\nfour BB\n');
      expect(d.get('k')?.extra).toEqual({ confidence: 0.9, reviewedBy: 'ana' });
    }
    expect(await b.svc.conflicts()).toEqual([]);
  });
});
