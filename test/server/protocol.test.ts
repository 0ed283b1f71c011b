import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SYNC_ROUTES,
  SnapshotResponseSchema,
  CommitResponseSchema,
  IdentityResponseSchema,
  SyncErrorBodySchema,
} from '../../shared/sync-protocol.js';
import type { RunningSyncServer } from '../../server/app.js';
import {
  makeStorage,
  PROJECT,
  put,
  startTestServer,
  testClock,
  TestClient,
  tokenFor,
  USER_SCOPE,
  type AdapterKind,
} from './helpers.js';

const DAY = 24 * 3600 * 1000;

describe.each<AdapterKind>(['fs', 's3'])('sync protocol over %s storage', (kind) => {
  const running: RunningSyncServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close();
    for (const c of cleanups.splice(0)) await c();
  });
  const setup = async (
    options: Parameters<typeof startTestServer>[0] extends infer O ? Partial<O> : never = {},
  ) => {
    const made = await makeStorage(kind);
    cleanups.push(made.cleanup);
    const clock = testClock();
    const server = await startTestServer({ storage: made.storage, now: clock.now, ...options });
    running.push(server);
    // Long-lived: some tests move the clock past the tombstone window (embedded servers set no max).
    const alice = new TestClient(server.url, await tokenFor('alice', { ttlSeconds: 365 * 24 * 3600 }));
    return { made, clock, server, alice };
  };

  it('identity names the verified account, the protocol range and the limits', async () => {
    const { alice, server } = await setup();
    const reply = await alice.identity();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-memory-sync-protocol')).toBe('3');
    const body = IdentityResponseSchema.parse(reply.body);
    expect(body.userId).toBe('alice');
    expect(body.protocol).toEqual({ min: 1, current: 3 });
    expect(body.limits.plan).toBe('free');
    expect(body.limits.quota).toEqual({
      notesPerScope: 5000,
      changesPerCommit: 500,
      noteBytes: 131072,
      responseBytes: 16777216,
      tombstoneDays: 90,
    });
    expect(body.limits.planLimits.notesPerScope).toBeGreaterThan(0);
    const paid = new TestClient(server.url, await tokenFor('carol', { plan: 'paid' }));
    expect((await paid.identity()).body.limits.planLimits).toEqual({ notesPerScope: null, noteBytes: null });
    const viaTeam = new TestClient(
      server.url,
      await tokenFor('dave', {
        plan: 'free',
        teams: [
          { id: 't', plan: 'free' },
          { id: 'u', plan: 'team' },
        ],
      }),
    );
    expect((await viaTeam.identity()).body.limits.plan).toBe('paid');
  });

  it('commits, lists, skips bodies the client has, and answers "unchanged" for a known version', async () => {
    const { alice, made } = await setup();
    const a = put('alpha', 'first body\n');
    const b = put('beta', 'second body\n', null, { type: 'feedback' });
    const c1 = await alice.commit({ scope: PROJECT, puts: [a, b] });
    expect(c1.status).toBe(200);
    const commit = CommitResponseSchema.parse(c1.body);
    expect(commit.version).toBe(1);
    expect(commit.applied.map((x) => [x.id, x.unchanged])).toEqual([
      ['alpha', false],
      ['beta', false],
    ]);
    expect(commit.rejected).toEqual([]);
    expect(commit.activeNotes).toBe(2);

    const full = SnapshotResponseSchema.parse(
      (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body,
    );
    if (full.status === 'unchanged') throw new Error('expected a listing');
    expect(full.status).toBe('full');
    expect(full.entries.map((e) => [e.id, e.hash, e.seq])).toEqual([
      ['alpha', a.hash, 1],
      ['beta', b.hash, 1],
    ]);
    expect(full.entries[1]!.typed).toBe(true);
    expect(full.objects.map((o) => [o.id, o.content])).toEqual([
      ['alpha', a.content],
      ['beta', b.content],
    ]);

    const withHave = (await alice.snapshot({ scope: PROJECT, sinceVersion: null, have: [a.hash] })).body;
    expect(withHave.entries).toHaveLength(2);
    expect(withHave.objects.map((o: { id: string }) => o.id)).toEqual(['beta']);

    const poll = await alice.snapshot({ scope: PROJECT, sinceVersion: 1 });
    expect(poll.body).toMatchObject({ status: 'unchanged', version: 1 });
    expect(JSON.stringify(poll.body).length).toBeLessThan(400);

    // The storage layout of server/storage-keys.ts: alpha and beta came in one commit, so one pack.
    const keys = (await made.storage.list('users/alice/')).sort();
    expect(keys).toEqual([
      'users/alice/projects/proj-1/memory/manifest.json',
      expect.stringMatching(/^users\/alice\/projects\/proj-1\/memory\/packs\/[0-9a-f]{16}\.json$/),
    ]);
    // A commit of one note stores it as its own object.
    await alice.commit({ scope: USER_SCOPE, puts: [put('me', 'who I am\n', null, { type: 'user' })] });
    expect((await made.storage.list('users/alice/memory/')).sort()).toEqual([
      'users/alice/memory/manifest.json',
      expect.stringMatching(/^users\/alice\/memory\/objects\/me\/[^/]+\.md$/),
    ]);
  });

  it('checks each note against its base: a stale one is rejected by id, the rest applied', async () => {
    const { alice } = await setup();
    const a = put('alpha', 'v1\n');
    const b = put('beta', 'v1\n');
    await alice.commit({ scope: PROJECT, puts: [a, b] });
    const a2 = put('alpha', 'v2\n', a.hash);
    expect((await alice.commit({ scope: PROJECT, puts: [a2] })).body.version).toBe(2);

    // Another device still based on v1 of alpha, with a good change to beta and a new note.
    const stale = put('alpha', 'other v2\n', a.hash);
    const b2 = put('beta', 'v2\n', b.hash);
    const reply = await alice.commit({ scope: PROJECT, puts: [stale, b2, put('gamma', 'new\n')] });
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe(3);
    expect(reply.body.applied.map((x: { id: string }) => x.id).sort()).toEqual(['beta', 'gamma']);
    expect(reply.body.rejected).toEqual([
      expect.objectContaining({
        id: 'alpha',
        op: 'put',
        code: 'stale_base',
        current: expect.objectContaining({ hash: a2.hash, seq: 2 }),
      }),
    ]);
    // Creating over an existing note is stale too; the identical content is accepted as a no-op.
    const dupCreate = await alice.commit({
      scope: PROJECT,
      puts: [put('gamma', 'something else\n'), { ...a2, baseHash: null }],
    });
    expect(dupCreate.body.rejected.map((r: { id: string; code: string }) => [r.id, r.code])).toEqual([
      ['gamma', 'stale_base'],
    ]);
    expect(dupCreate.body.applied).toEqual([expect.objectContaining({ id: 'alpha', unchanged: true })]);
    expect(dupCreate.body.version).toBe(3);

    const changes = (await alice.snapshot({ scope: PROJECT, sinceVersion: 2 })).body;
    expect(changes.status).toBe('changes');
    expect(changes.entries.map((e: { id: string }) => e.id)).toEqual(['beta', 'gamma']);
  });

  it('turns deletes into tombstones and drops them after the window (clock injected)', async () => {
    const { alice, clock } = await setup();
    const a = put('alpha', 'x\n');
    const b = put('beta', 'y\n');
    await alice.commit({ scope: PROJECT, puts: [a, b] });
    const stale = await alice.commit({ scope: PROJECT, deletes: [{ id: 'alpha', baseHash: b.hash }] });
    expect(stale.body.rejected).toEqual([
      expect.objectContaining({ id: 'alpha', op: 'delete', code: 'stale_base' }),
    ]);
    const del = await alice.commit({
      scope: PROJECT,
      deletes: [
        { id: 'alpha', baseHash: a.hash },
        { id: 'never-existed', baseHash: a.hash },
      ],
    });
    expect(del.body.version).toBe(2);
    expect(del.body.activeNotes).toBe(1);
    expect(del.body.applied).toEqual([
      expect.objectContaining({
        id: 'alpha',
        op: 'delete',
        unchanged: false,
        entry: expect.objectContaining({ hash: null, rev: null, deletedAt: clock.now(), seq: 2 }),
      }),
      expect.objectContaining({ id: 'never-existed', unchanged: true, entry: null }),
    ]);
    const again = await alice.commit({ scope: PROJECT, deletes: [{ id: 'alpha', baseHash: a.hash }] });
    expect(again.body.applied[0]).toMatchObject({ unchanged: true });
    expect(again.body.version).toBe(2);

    const since1 = (await alice.snapshot({ scope: PROJECT, sinceVersion: 1 })).body;
    expect(since1.entries).toEqual([expect.objectContaining({ id: 'alpha', hash: null })]);
    expect(since1.objects).toEqual([]);

    clock.advance(89 * DAY);
    expect((await alice.snapshot({ scope: PROJECT, sinceVersion: 1 })).body.status).toBe('changes');
    clock.advance(2 * DAY);
    // A device that never saw the tombstone gets a full listing without alpha: it deletes its copy
    // if unchanged (client rule). A device that saw version 2 is simply up to date.
    const late = (await alice.snapshot({ scope: PROJECT, sinceVersion: 1 })).body;
    expect(late.status).toBe('full');
    expect(late.entries.map((e: { id: string }) => e.id)).toEqual(['beta']);
    expect((await alice.snapshot({ scope: PROJECT, sinceVersion: 2 })).body.status).toBe('unchanged');
    // The next commit writes the pruned manifest; the id can be created again.
    const recreate = await alice.commit({ scope: PROJECT, puts: [put('alpha', 'back\n')] });
    expect(recreate.body.applied[0]).toMatchObject({ id: 'alpha', unchanged: false });
  });

  it('refuses bad notes one by one with a code and a message, and loses nothing', async () => {
    const { alice } = await setup();
    const foo = put('Foo', 'upper\n');
    await alice.commit({ scope: PROJECT, puts: [foo] });
    const good = put('good', 'ok\n');
    const wrongHash = { ...put('wrong-hash', 'a\n'), hash: put('x', 'b\n').hash };
    const idMismatch = { ...put('named-other', 'a\n'), id: 'claimed-id' };
    const reply = await alice.commit({
      scope: PROJECT,
      puts: [
        put('foo', 'lower\n'),
        { id: '../escape', baseHash: null, hash: good.hash, content: good.content },
        { id: 'broken', baseHash: null, hash: good.hash, content: 'no frontmatter here' },
        wrongHash,
        idMismatch,
        good,
        { ...good, content: good.content },
      ],
    });
    expect(reply.status).toBe(200);
    const codes = Object.fromEntries(
      reply.body.rejected.map((r: { id: string; code: string }) => [r.id, r.code]),
    );
    expect(codes).toEqual({
      foo: 'id_case_collision',
      '../escape': 'invalid_id',
      broken: 'invalid_note',
      'wrong-hash': 'hash_mismatch',
      'claimed-id': 'invalid_note',
      good: 'duplicate_id',
    });
    for (const r of reply.body.rejected) expect(r.message.length).toBeGreaterThan(10);
    expect(reply.body.applied.map((x: { id: string }) => x.id)).toEqual(['good']);
    const list = (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    expect(list.entries.map((e: { id: string }) => e.id)).toEqual(['Foo', 'good']);
    expect(list.objects.find((o: { id: string }) => o.id === 'Foo').content).toBe(foo.content);
    // Deleting Foo and creating foo in one commit is fine (deletes go first).
    const swap = await alice.commit({
      scope: PROJECT,
      deletes: [{ id: 'Foo', baseHash: foo.hash }],
      puts: [put('foo', 'lower\n')],
    });
    expect(swap.body.rejected, JSON.stringify(swap.body)).toEqual([]);
  });

  it('enforces quotas, and a lowered quota blocks only growth', async () => {
    const { alice, made, clock, server } = await setup({
      quotas: { notesPerScope: 3, changesPerCommit: 4, noteBytes: 400 },
    });
    const tooMany = await alice.commit({
      scope: PROJECT,
      puts: [1, 2, 3, 4, 5].map((i) => put(`n${i}`, 'x\n')),
    });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.code).toBe('too_many_changes');
    expect(tooMany.body.limits.quota.changesPerCommit).toBe(4);
    const notes = [1, 2, 3, 4].map((i) => put(`n${i}`, 'x\n'));
    const big = put('big', 'y'.repeat(500));
    const first = await alice.commit({ scope: PROJECT, puts: [...notes.slice(0, 3), big] });
    expect(first.body.rejected.map((r: { code: string }) => r.code)).toEqual(['note_too_large']);
    expect((await alice.commit({ scope: PROJECT, puts: [notes[3]!] })).body.rejected[0].code).toBe(
      'scope_full',
    );

    // The operator lowers the quotas: 1 note, 1 byte of body. Existing notes stay; deletes pass;
    // updates that do not grow pass; new notes and growth are refused.
    await server.close();
    running.length = 0;
    const lowered = await startTestServer({
      storage: made.make(),
      now: clock.now,
      quotas: { notesPerScope: 1, noteBytes: 1 },
    });
    running.push(lowered);
    const client = new TestClient(lowered.url, alice.token);
    const n1 = notes[0]!;
    expect(Buffer.byteLength('x\n')).toBeGreaterThan(1); // n1's body: already over the new limit
    const shrink = put('n1', '', n1.hash);
    const grow = put('n2', 'grown body\n', notes[1]!.hash);
    const r = await client.commit({
      scope: PROJECT,
      puts: [shrink, grow, put('n9', '')],
      deletes: [{ id: 'n3', baseHash: notes[2]!.hash }],
    });
    expect(
      Object.fromEntries(r.body.rejected.map((x: { id: string; code: string }) => [x.id, x.code])),
    ).toEqual({ n2: 'note_too_large', n9: 'scope_full' });
    expect(r.body.applied.map((x: { id: string }) => x.id).sort()).toEqual(['n1', 'n3']);
    expect(r.body.activeNotes).toBe(2);
  });

  it('applies the free plan from the entitlements; a paid plan (own or a team’s) has none', async () => {
    const { alice, server } = await setup({
      entitlements: { paidPlans: ['paid', 'team'], free: { notesPerScope: 2, bytesPerNote: 150 } },
    });
    const reply = await alice.commit({
      scope: PROJECT,
      puts: [put('a', 'x\n'), put('b', 'x\n'), put('c', 'x\n'), put('d', 'z'.repeat(200))],
    });
    expect(
      Object.fromEntries(reply.body.rejected.map((x: { id: string; code: string }) => [x.id, x.code])),
    ).toEqual({ c: 'plan_scope_full', d: 'plan_note_too_large' });
    expect(reply.body.limits).toMatchObject({
      plan: 'free',
      planLimits: { notesPerScope: 2, noteBytes: 150 },
    });
    expect(reply.body.rejected[0].message).toMatch(/free plan/);
    const teamPaid = new TestClient(
      server.url,
      await tokenFor('alice', { teams: [{ id: 'x', plan: 'team' }] }),
    );
    const more = await teamPaid.commit({
      scope: PROJECT,
      puts: [put('c', 'x\n'), put('d', 'z'.repeat(200))],
    });
    expect(more.body.rejected).toEqual([]);
    expect(more.body.limits.plan).toBe('paid');
  });

  it('strict (commitFirst) batches are all or nothing against the version the client checked', async () => {
    const { alice } = await setup();
    const a = put('a', '1\n');
    const b = put('b', '1\n');
    await alice.commit({ scope: PROJECT, puts: [a, b] });
    const moved = await alice.commit({ scope: PROJECT, puts: [put('c', '1\n')] });
    expect(moved.body.version).toBe(2);
    const late = await alice.commit({
      scope: PROJECT,
      strict: { manifestVersion: 1 },
      puts: [put('a', 'merged\n', a.hash)],
      deletes: [{ id: 'b', baseHash: b.hash }],
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('manifest_changed');
    expect(late.body.error.details.currentVersion).toBe(2);
    const partlyStale = await alice.commit({
      scope: PROJECT,
      strict: { manifestVersion: 2 },
      puts: [put('a', 'merged\n', a.hash)],
      deletes: [{ id: 'b', baseHash: a.hash }],
    });
    expect(partlyStale.status).toBe(409);
    expect(partlyStale.body.error.code).toBe('batch_rejected');
    expect(partlyStale.body.error.details.rejected).toEqual([
      expect.objectContaining({ id: 'b', code: 'stale_base' }),
    ]);
    const list = (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    expect(list.version).toBe(2);
    expect(list.entries.find((e: { id: string }) => e.id === 'a').hash).toBe(a.hash);
    const ok = await alice.commit({
      scope: PROJECT,
      strict: { manifestVersion: 2 },
      puts: [put('a', 'merged\n', a.hash)],
      deletes: [{ id: 'b', baseHash: b.hash }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(3);
  });

  it('pages bodies by the response cap, and restarts paging if the manifest moves', async () => {
    const { alice } = await setup({ quotas: { responseBytes: 1000 } });
    const notes = Array.from({ length: 7 }, (_, i) => put(`note-${i}`, `${'body '.repeat(60)}${i}\n`));
    await alice.commit({ scope: PROJECT, puts: notes });
    const seen: string[] = [];
    const entries: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = SnapshotResponseSchema.parse(
        (await alice.snapshot({ scope: PROJECT, sinceVersion: null, cursor })).body,
      );
      if (page.status === 'unchanged') throw new Error('unexpected');
      pages++;
      expect(page.objects.reduce((n, o) => n + Buffer.byteLength(o.content), 0)).toBeLessThanOrEqual(1000);
      seen.push(...page.objects.map((o) => o.id));
      entries.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(seen).toEqual(notes.map((n) => n.id));
    expect(entries).toEqual(notes.map((n) => n.id));

    const first = (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    await alice.commit({ scope: PROJECT, puts: [put('late', 'x\n')] });
    const expired = await alice.snapshot({ scope: PROJECT, sinceVersion: null, cursor: first.nextCursor });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('cursor_expired');
    const bogus = await alice.snapshot({ scope: PROJECT, sinceVersion: null, cursor: 'not-a-cursor' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.code).toBe('invalid_request');
  });
});

describe('protocol versions, errors and limits in every response', () => {
  const running: RunningSyncServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close();
    for (const c of cleanups.splice(0)) await c();
  });
  const setup = async (options: Record<string, unknown> = {}) => {
    const made = await makeStorage('fs');
    cleanups.push(made.cleanup);
    const clock = testClock();
    const server = await startTestServer({ storage: made.storage, now: clock.now, ...options });
    running.push(server);
    return { made, clock, server, alice: new TestClient(server.url, await tokenFor('alice')) };
  };

  it('tells old clients to upgrade and new clients that the server is old', async () => {
    const { alice, server } = await setup();
    await alice.commit({ scope: PROJECT, puts: [put('typed', 'x\n', null, { type: 'project' })] });
    await alice.commit({ scope: { kind: 'project', projectId: 'untyped' }, puts: [put('plain', 'x\n')] });
    const none = new TestClient(server.url, alice.token, null);
    const r0 = await none.identity();
    expect(r0.status).toBe(426);
    expect(r0.body.error.code).toBe('upgrade_required');
    expect(r0.body.error.details).toEqual({ min: 1, current: 3 });
    const v1 = new TestClient(server.url, alice.token, 1);
    expect((await v1.identity()).status).toBe(200);
    expect((await v1.snapshot({ scope: USER_SCOPE, sinceVersion: null })).body.error.code).toBe(
      'upgrade_required',
    );
    const typedScope = await v1.snapshot({ scope: PROJECT, sinceVersion: null });
    expect(typedScope.status).toBe(426);
    expect(typedScope.body.error.message).toMatch(/type/);
    expect(
      (await v1.snapshot({ scope: { kind: 'project', projectId: 'untyped' }, sinceVersion: null })).status,
    ).toBe(200);
    const typedPut = await v1.commit({
      scope: { kind: 'project', projectId: 'untyped' },
      puts: [put('t2', 'x\n', null, { type: 'reference' })],
    });
    expect(typedPut.status).toBe(426);
    const v4 = new TestClient(server.url, alice.token, 4);
    const r3 = await v4.identity();
    expect(r3.status).toBe(400);
    expect(r3.body.error.code).toBe('protocol_unsupported');
    expect(r3.body.limits).toBeDefined();
  });

  it('plays an old (protocol 1) server: a new client falls back to 1 for untyped project notes', async () => {
    const { alice } = await setup({ protocol: { min: 1, current: 1 } });
    const refused = await alice.identity();
    expect(refused.body.error.code).toBe('protocol_unsupported');
    expect(refused.body.error.details).toEqual({ min: 1, current: 1 });
    alice.protocol = refused.body.error.details.current;
    expect((await alice.commit({ scope: PROJECT, puts: [put('plain', 'x\n')] })).body.applied).toHaveLength(
      1,
    );
    expect((await alice.snapshot({ scope: PROJECT, sinceVersion: 0 })).body.entries).toHaveLength(1);
  });

  it('answers unknown routes, wrong methods, bad JSON, bad shapes and oversize bodies clearly', async () => {
    const { alice } = await setup({ maxRequestBytes: 2000 });
    const notFound = await alice.request('GET', '/v1/memory/nope');
    expect([notFound.status, notFound.body.error.code]).toEqual([404, 'not_found']);
    const wrongMethod = await alice.request('GET', SYNC_ROUTES.commit);
    expect([wrongMethod.status, wrongMethod.body.error.code, wrongMethod.headers.get('allow')]).toEqual([
      405,
      'method_not_allowed',
      'POST',
    ]);
    const badJson = await alice.request('POST', SYNC_ROUTES.commit, '{"scope":');
    expect([badJson.status, badJson.body.error.code]).toEqual([400, 'invalid_request']);
    const badShape = await alice.commit({ scope: { kind: 'project', projectId: '../../etc' }, puts: [] });
    expect([badShape.status, badShape.body.error.code]).toEqual([400, 'invalid_request']);
    expect(badShape.body.error.message).toMatch(/scope\.projectId/);
    expect(badShape.body.limits.plan).toBe('free');
    const huge = await alice.commit({ scope: PROJECT, puts: [put('big', 'x'.repeat(5000))] });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'request_too_large']);
    expect((await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body.entries).toEqual([]);
  });

  it('rate-limits per account with 429 and Retry-After, and recovers when the clock moves on', async () => {
    const { alice, clock, server } = await setup({ rateLimit: { requests: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await alice.identity()).status).toBe(200);
    const limited = await alice.identity();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(limited.body.error.details).toEqual({ retryAfterSeconds: 20 });
    expect(limited.body.limits).toBeDefined();
    const bob = new TestClient(server.url, await tokenFor('bob'));
    expect((await bob.identity()).status).toBe(200);
    clock.advance(20_000);
    expect((await alice.identity()).status).toBe(200);
    expect((await alice.identity()).status).toBe(429);
  });

  it('reports broken storage as storage_unavailable and never pretends to succeed', async () => {
    const { alice, made } = await setup();
    await alice.commit({ scope: PROJECT, puts: [put('kept', 'x\n')] });
    const dir = made.dir!;
    // The data directory becomes unusable underneath the running server.
    await fs.rename(path.join(dir, 'users'), path.join(dir, 'users-moved'));
    await fs.writeFile(path.join(dir, 'users'), 'not a directory');
    const reply = await alice.commit({ scope: PROJECT, puts: [put('lost', 'x\n')] });
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('storage_unavailable');
    expect(reply.body.error.message).toMatch(/storage/);
    // Reading must not mistake the damage for an empty scope (a client would think notes were deleted).
    const read = await alice.snapshot({ scope: PROJECT, sinceVersion: null });
    expect([read.status, read.body.error.code]).toEqual([503, 'storage_unavailable']);
    await fs.rm(path.join(dir, 'users'));
    await fs.rename(path.join(dir, 'users-moved'), path.join(dir, 'users'));
    const list = (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    expect(list.entries.map((e: { id: string }) => e.id)).toEqual(['kept']);
  });

  it('a server started without usable storage starts, says so, and answers 503 storage_unavailable', async () => {
    const { UnavailableStorage } = await import('../../server/storage/unavailable-storage.js');
    const lines: string[] = [];
    const server = await startTestServer({
      storage: new UnavailableStorage('S3 storage was chosen but OHARNESS_SYNC_S3_BUCKET is not set'),
      log: (l) => lines.push(l),
    });
    running.push(server);
    expect(server.storageProblem).toMatch(/OHARNESS_SYNC_S3_BUCKET/);
    expect(lines.join('\n')).toMatch(/storage UNAVAILABLE/);
    const alice = new TestClient(server.url, await tokenFor('alice', { now: Date.now() }));
    for (const reply of [
      await alice.identity(),
      await alice.snapshot({ scope: PROJECT, sinceVersion: null }),
      await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n')] }),
    ]) {
      expect(reply.status).toBe(503);
      expect(SyncErrorBodySchema.parse(reply.body).error.code).toBe('storage_unavailable');
      expect(reply.body.error.message).toMatch(/OHARNESS_SYNC_S3_BUCKET/);
    }
  });

  it('an S3 outage is storage_unavailable too', async () => {
    const made = await makeStorage('s3');
    cleanups.push(made.cleanup);
    const server = await startTestServer({ storage: made.storage });
    running.push(server);
    const alice = new TestClient(server.url, await tokenFor('alice', { now: Date.now() }));
    expect((await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n')] })).status).toBe(200);
    made.s3!.setOutage(true);
    const reply = await alice.snapshot({ scope: PROJECT, sinceVersion: 0 });
    expect([reply.status, reply.body.error.code]).toEqual([503, 'storage_unavailable']);
    made.s3!.setOutage(false);
  });

  it('a damaged manifest is an internal error and is left untouched', async () => {
    const { alice, made } = await setup();
    await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n')] });
    const file = path.join(made.dir!, 'users/alice/projects/proj-1/memory/manifest.json');
    await fs.writeFile(file, '{"format":1,"version":');
    const reply = await alice.commit({ scope: PROJECT, puts: [put('b', 'x\n')] });
    expect([reply.status, reply.body.error.code]).toEqual([500, 'internal']);
    expect(await fs.readFile(file, 'utf8')).toBe('{"format":1,"version":');
  });

  it('answers busy (503, Retry-After) when compare-and-swap keeps losing, and applies nothing', async () => {
    const { FsStorage } = await import('../../server/storage/fs-storage.js');
    const made = await makeStorage('fs');
    cleanups.push(made.cleanup);
    // A second writer (a real one, on the same directory) replaces the manifest every time this
    // server is about to publish, so its compare-and-swap always loses.
    const rival = new FsStorage(made.dir!);
    const contested = new FsStorage(made.dir!, {
      beforePublish: async (key) => {
        const current = await rival.get(key);
        if (current) await rival.put(key, current.body.toString().replace('"version":', '"version": '));
      },
    });
    const server = await startTestServer({ storage: contested, maxCasAttempts: 3 });
    running.push(server);
    const alice = new TestClient(server.url, await tokenFor('alice', { now: Date.now() }));
    expect((await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n')] })).status).toBe(200); // create: no rival yet
    const reply = await alice.commit({ scope: PROJECT, puts: [put('b', 'x\n')] });
    expect([reply.status, reply.body.error.code, reply.headers.get('retry-after')]).toEqual([
      503,
      'busy',
      '1',
    ]);
    expect(
      (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body.entries.map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual(['a']);
  });
});
