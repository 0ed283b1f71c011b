import { expect, it } from 'vitest';
import { legacyContentHash } from '../../shared/content-hash.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { expectOk, startDevice, type Device, type TestServer, useTestServer } from './harness.js';

/**
 * A client from before foreign frontmatter keys were hashed, beside new clients on one account.
 * The old client is the protocol as it spoke it, raw: protocol 2 requests, a full listing, and
 * commits naming the legacy hash of the whole file it holds (keys kept in the file, not hashed).
 */
let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

interface Listed {
  entries: Array<{ id: string; hash: string | null }>;
  objects: Array<{ id: string; hash: string; content: string }>;
}

function legacyClient(token: string) {
  const call = async (route: string, body: unknown): Promise<Response> =>
    fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-memory-sync-protocol': '2',
      },
      body: JSON.stringify(body),
    });
  return {
    /** The note as the cloud holds it now, and the hash its entry names. */
    async read(id: string): Promise<{ content: string; hash: string }> {
      const res = await call('/v1/memory/snapshot', { scope: { kind: 'user' }, sinceVersion: null, have: [] });
      expect(res.status).toBe(200);
      const listed = (await res.json()) as Listed;
      const entry = listed.entries.find((e) => e.id === id)!;
      const object = listed.objects.find((o) => o.id === id && o.hash === entry.hash)!;
      return { content: object.content, hash: entry.hash! };
    },
    /** An edit of the body, the file's keys kept as they are, committed with the legacy hash. */
    async editBody(id: string, edit: (body: string) => string): Promise<void> {
      const { content, hash } = await this.read(id);
      const parsed = parseNote(content);
      if (!parsed.ok) throw new Error('the cloud note does not parse');
      const note = {
        ...parsed.note,
        body: edit(parsed.note.body),
        createdAt: parsed.note.createdAt ?? 1,
        updatedAt: (parsed.note.updatedAt ?? 1) + 1,
      };
      const res = await call('/v1/memory/commit', {
        scope: { kind: 'user' },
        puts: [{ id, baseHash: hash, hash: legacyContentHash(note), content: serializeNote(note) }],
      });
      expect(res.status).toBe(200);
      const applied = ((await res.json()) as { applied: Array<{ unchanged: boolean }> }).applied;
      expect(applied).toEqual([expect.objectContaining({ unchanged: false })]);
    },
  };
}

it('an old client (raw protocol 2 requests, legacy hash without foreign keys) and new clients on one account converge: every edit kept, no conflict, nothing re-uploaded for ever', async () => {
  const token = await server.token('legacy-hash-mix');
  const a = await startDevice('a', server, { token });
  const b = await startDevice('b', server, { token });
  open.push(a, b);
  const old = legacyClient(token);
  const write = async (d: Device, body: string, extra: Record<string, unknown>): Promise<void> => {
    const current = d.get('k');
    await d.user.store!.write({
      id: 'k',
      summary: 'k',
      tags: [],
      body,
      createdAt: current?.createdAt ?? 1,
      updatedAt: d.clock.now(),
      extra,
    });
  };
  await write(a, 'one\ntwo\nthree\nfour\n', { agent: 'claude' });
  expectOk(await a.sync());
  expectOk(await b.sync());

  // The old client edits the last line; meanwhile a edits the first and adds a key of its own.
  await old.editBody('k', (body) => body.replace('four', 'FOUR from old'));
  await write(a, 'ONE from a\ntwo\nthree\nfour\n', { agent: 'claude', reviewedBy: 'ana' });
  expectOk(await a.sync());
  // The old client reads the merge and edits again, on the new hash the entry names now.
  const merged = await old.read('k');
  expect(merged.content).toContain('ONE from a');
  expect(merged.content).toContain('FOUR from old');
  await old.editBody('k', (body) => body.replace('two', 'TWO from old'));

  for (const d of [a, b, a, b]) expectOk(await d.sync());
  const expected = 'ONE from a\nTWO from old\nthree\nFOUR from old\n';
  for (const d of [a, b]) {
    expect(d.get('k')?.body).toBe(expected);
    expect(d.get('k')?.extra).toEqual({ agent: 'claude', reviewedBy: 'ana' });
    expect(await d.svc.conflicts()).toEqual([]);
  }
  expect(parseNote((await old.read('k')).content)).toMatchObject({ ok: true, note: { body: expected } });
  // Stable: further rounds upload nothing.
  const before = server.requests.length;
  for (const d of [a, b]) expectOk(await d.sync());
  expect(server.requests.slice(before).filter((r) => r.includes('commit'))).toEqual([]);
});
