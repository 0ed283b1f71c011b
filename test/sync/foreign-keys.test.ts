import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { legacyContentHash } from '../../shared/content-hash.js';
import type { Note } from '../../shared/note.js';
import { serializeNote } from '../../shared/note-format.js';
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

  it('an edit of foreign keys only reaches the other device', async () => {
    const token = await server.token('foreign-keys-only');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('k', 'body\n');
    await edit(a, 'k', 'body\n', { agent: 'claude' });
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.get('k')?.extra).toEqual({ agent: 'claude' });

    await edit(a, 'k', 'body\n', { agent: 'codex', reviewedBy: 'ana' });
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.get('k')?.extra).toEqual({ agent: 'codex', reviewedBy: 'ana' });
    await edit(b, 'k', 'body\n', undefined);
    expectOk(await b.sync());
    expectOk(await a.sync());
    expect(a.get('k')?.extra).toBeUndefined();
    expect(await a.svc.conflicts()).toEqual([]);
    expect(await b.svc.conflicts()).toEqual([]);
  });

  it('a baseline and a cloud holding the old hash (without foreign keys): no conflict, at most one upload', async () => {
    const token = await server.token('foreign-keys-old-hash');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    // What a client from before foreign keys were hashed uploaded: the file with its keys, the old hash.
    const note: Note = {
      id: 'k',
      summary: 'old',
      tags: [],
      body: 'line\n',
      createdAt: 1,
      updatedAt: 1,
      extra: { agent: 'claude' },
    };
    const content = serializeNote(note);
    const old = legacyContentHash(note);
    const answer = await fetch(`${server.url}/v1/memory/commit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-memory-sync-protocol': '2',
      },
      body: JSON.stringify({
        scope: { kind: 'user' },
        puts: [{ id: 'k', baseHash: null, hash: old, content }],
      }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { applied: unknown[] }).applied).toHaveLength(1);
    expectOk(await a.sync());
    expectOk(await b.sync());
    // a's baseline from before the upgrade: the old hash.
    const stateFile = path.join(a.svc.baselines.dir, 'state.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8')) as { base: Record<string, string> };
    expect(state.base.k).toBe(old);
    const before = server.requests.length;
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(server.requests.slice(before).filter((r) => r.includes('commit'))).toEqual([]);
    // An edit of the body on b and of the keys on a merge, without a conflict.
    await edit(b, 'k', 'line\nfrom b\n', { agent: 'claude' });
    await edit(a, 'k', 'line\n', { agent: 'claude', reviewedBy: 'ana' });
    expectOk(await b.sync());
    expectOk(await a.sync());
    expectOk(await b.sync());
    for (const d of [a, b]) {
      expect(d.get('k')?.body).toBe('line\nfrom b\n');
      expect(d.get('k')?.extra).toEqual({ agent: 'claude', reviewedBy: 'ana' });
    }
    expect(await a.svc.conflicts()).toEqual([]);
    expect(await b.svc.conflicts()).toEqual([]);
  });
});
