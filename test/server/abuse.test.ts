import { rm } from 'node:fs/promises';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION, SYNC_ROUTES } from '../../shared/sync-protocol.js';
import type { RunningSyncServer } from '../../server/app.js';
import { commitBodyLimit } from '../../shared/commit-body.js';
import { killHard, spawnTs } from './child-process.js';
import {
  makeNote,
  PROJECT,
  put,
  SECRET,
  startTestServer,
  T0,
  tempDir,
  testClock,
  TestClient,
  tokenFor,
} from './helpers.js';

// Issue 15, "the sync server under abuse": each test sends the attack the audit found.
const running: RunningSyncServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const c of cleanups.splice(0)) await c();
});

async function fsServer(
  options: Parameters<typeof startTestServer>[0] extends infer O ? Partial<O> : never = {},
) {
  const dir = await tempDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const clock = testClock();
  const server = await startTestServer({ storage: { kind: 'fs', dir }, now: clock.now, ...options });
  running.push(server);
  return { server, dir, clock };
}

/** A raw POST that declares `declared` bytes and sends `send` (maybe less), resolving on the answer. */
function rawPost(
  url: string,
  token: string,
  declared: number,
  send: Buffer,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: string; sentAll: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url + SYNC_ROUTES.commit, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
        'content-type': 'application/json',
        'content-length': String(declared),
        ...extra,
      },
    });
    let sentAll = false;
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, sentAll }));
    });
    req.on('error', reject);
    req.write(send, () => {
      sentAll = declared === send.length;
      if (sentAll) req.end();
    });
  });
}

describe('request bodies are capped by the announced limits before anything is parsed', () => {
  it('a free account declaring a body over its commit limit is refused at once, unread', async () => {
    const { server } = await fsServer();
    const token = await tokenFor('mallory'); // free plan: 32 KiB of body per note
    const identity = (await new TestClient(server.url, token).identity()).body;
    const limit = commitBodyLimit(identity.limits);
    expect(limit).toBeLessThan(40 * 1024 * 1024); // far below the 79 MiB accepted from anyone before
    // 78 MB declared, 1 KB sent: the answer comes without the server waiting for (or holding) the rest.
    const reply = await rawPost(server.url, token, 78_000_000, Buffer.alloc(1024, 0x20));
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error).toMatchObject({
      code: 'request_too_large',
      details: { maxBytes: limit },
    });
    expect(reply.sentAll).toBe(false);
  });

  it('a paid account gets the larger limit its plan announces', async () => {
    const free = commitBodyLimit({
      plan: 'free',
      quota: {
        notesPerScope: 5000,
        changesPerCommit: 500,
        noteBytes: 131072,
        responseBytes: 1,
        tombstoneDays: 90,
      },
      planLimits: { notesPerScope: 1000, noteBytes: 32768 },
    });
    const paid = commitBodyLimit({
      plan: 'paid',
      quota: {
        notesPerScope: 5000,
        changesPerCommit: 500,
        noteBytes: 131072,
        responseBytes: 1,
        tombstoneDays: 90,
      },
      planLimits: { notesPerScope: null, noteBytes: null },
    });
    expect(paid).toBeGreaterThan(free);
    // A full commit of notes at the paid limit, with frontmatter and some escaping, fits.
    expect(paid).toBeGreaterThan(500 * (131072 + 4096) * 1.2);
  });

  it('a gzip body that inflates past the limit is refused without inflating it all', async () => {
    const { server } = await fsServer();
    const token = await tokenFor('mallory');
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces, ~64 KB
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const reply = await rawPost(server.url, token, bomb.length, bomb, { 'content-encoding': 'gzip' });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error.code).toBe('request_too_large');
  });

  it('bodies in flight share one budget: past it a request is refused busy, not buffered', async () => {
    const { server } = await fsServer({ maxBodyBytesInFlight: 1024 * 1024 });
    const token = await tokenFor('mallory', { plan: 'paid' });
    // One client holds 700 KB of an unfinished body open; a second 700 KB body does not fit beside it.
    const holding = http.request(server.url + SYNC_ROUTES.commit, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
        'content-length': String(2_000_000),
      },
    });
    holding.on('error', () => undefined);
    await new Promise<void>((resolve) => holding.write(Buffer.alloc(700_000, 0x20), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the server read it
    const second = await rawPost(server.url, token, 700_000, Buffer.alloc(700_000, 0x20));
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body).error.code).toBe('busy');
    holding.destroy();
  });

  it('gzip bodies work both ways for a client that sends and accepts them', async () => {
    const { server } = await fsServer();
    const token = await tokenFor('alice', { plan: 'paid' });
    const notes = Array.from({ length: 50 }, (_, i) => put(`n${i}`, `note ${i} `.repeat(40)));
    const plain = Buffer.from(JSON.stringify({ scope: PROJECT, puts: notes }));
    const zipped = gzipSync(plain);
    const reply = await rawPost(server.url, token, zipped.length, zipped, { 'content-encoding': 'gzip' });
    expect(reply.status, reply.body).toBe(200);
    expect(JSON.parse(reply.body).applied).toHaveLength(50);
    const raw = await fetch(server.url + SYNC_ROUTES.snapshot, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
        'accept-encoding': 'gzip',
      },
      body: JSON.stringify({ scope: PROJECT, sinceVersion: null }),
    });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    expect(raw.headers.get('accept-encoding')).toBe('gzip');
    expect(Number(raw.headers.get('content-length'))).toBeLessThan(plain.length / 4);
    expect((await raw.json()).objects).toHaveLength(50);
  });
});

describe('the note size limit is 128 KiB of body, the same measure as the client', () => {
  it('a body under the limit syncs even when the whole file is over it; a body over it does not', async () => {
    const { server } = await fsServer();
    const alice = new TestClient(server.url, await tokenFor('alice', { plan: 'paid' }));
    const limit = 128 * 1024;
    const summary = 's'.repeat(2000); // frontmatter that pushes the file past the limit
    const fits = makeNote('fits', 'b'.repeat(limit), { summary });
    expect(Buffer.byteLength(fits.content)).toBeGreaterThan(limit);
    const over = makeNote('over', 'b'.repeat(limit + 1));
    const reply = await alice.commit({
      scope: PROJECT,
      puts: [
        { id: 'fits', baseHash: null, ...fits },
        { id: 'over', baseHash: null, ...over },
      ],
    });
    expect(reply.body.applied.map((a: { id: string }) => a.id)).toEqual(['fits']);
    expect(reply.body.rejected).toEqual([expect.objectContaining({ id: 'over', code: 'note_too_large' })]);
  });

  it('frontmatter cannot carry what the body may not: over 16 KiB is refused', async () => {
    const { server } = await fsServer();
    const alice = new TestClient(server.url, await tokenFor('alice', { plan: 'paid' }));
    const fat = makeNote('fat', 'x\n', { summary: 'f'.repeat(17 * 1024) });
    const reply = await alice.commit({ scope: PROJECT, puts: [{ id: 'fat', baseHash: null, ...fat }] });
    expect(reply.body.rejected[0]).toMatchObject({ id: 'fat', code: 'note_too_large' });
  });

  it('the free plan limit is measured on the body too', async () => {
    const { server } = await fsServer();
    const alice = new TestClient(server.url, await tokenFor('alice'));
    const fits = makeNote('fits', 'b'.repeat(32 * 1024), { summary: 'long '.repeat(100) });
    const over = makeNote('over', 'b'.repeat(32 * 1024 + 1));
    const reply = await alice.commit({
      scope: PROJECT,
      puts: [
        { id: 'fits', baseHash: null, ...fits },
        { id: 'over', baseHash: null, ...over },
      ],
    });
    expect(reply.body.applied.map((a: { id: string }) => a.id)).toEqual(['fits']);
    expect(reply.body.rejected[0]).toMatchObject({ id: 'over', code: 'plan_note_too_large' });
  });
});

describe('errors never carry storage paths', () => {
  it('a 200-character sub that breaks the filesystem gets an error without the data directory', async () => {
    const { server, dir } = await fsServer();
    // '.' is escaped to '~2E': a 600-character file name (ENAMETOOLONG, which named the directory);
    // 'é' to '~C3~A9': a key over 1024 characters.
    for (const [sub, status, code] of [
      ['.'.repeat(200), 503, 'storage_unavailable'],
      ['é'.repeat(200), 500, 'internal'],
    ] as const) {
      const client = new TestClient(server.url, await tokenFor(sub));
      const reply = await client.commit({ scope: PROJECT, puts: [put('a', 'x\n')] });
      expect([reply.status, reply.body.error.code], JSON.stringify(reply.body)).toEqual([status, code]);
      const text = JSON.stringify(reply.body);
      expect(text).not.toContain(dir);
      expect(text).not.toContain('users/');
      expect(text).not.toContain('~');
    }
  });
});

describe('JWT settings and claims', () => {
  it('refuses to start with an HS secret under 32 bytes', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await expect(
      startTestServer({ storage: { kind: 'fs', dir }, jwtSecret: 'short-secret' }),
    ).rejects.toThrow(/at least 32/);
    await expect(
      startTestServer({ storage: { kind: 'fs', dir }, jwtSecret: 'x'.repeat(31) }),
    ).rejects.toThrow(/OHARNESS_SYNC_JWT_SECRET/);
    const child = spawnTs('server/main.ts', ['--port', '0', '--data', dir], {
      OHARNESS_SYNC_JWT_SECRET: 'weak',
    });
    cleanups.push(() => killHard(child.child));
    const code = await new Promise<number | null>((resolve) => child.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(child.stderr()).toMatch(/at least 32/);
  }, 30_000);

  it('refuses to start with a JWKS URL but no issuer and audience to require', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const base = {
      storage: { kind: 'fs' as const, dir },
      jwtSecret: undefined,
      jwksUrl: 'http://127.0.0.1:9/jwks',
    };
    await expect(startTestServer(base)).rejects.toThrow(/OHARNESS_SYNC_JWT_ISSUER/);
    await expect(startTestServer({ ...base, issuer: 'https://id.example' })).rejects.toThrow(
      /OHARNESS_SYNC_JWT_AUDIENCE/,
    );
  });

  it('refuses a token without exp, and one that lives longer than the configured maximum', async () => {
    const { server, clock } = await fsServer({ maxTokenLifetimeSeconds: 24 * 3600 });
    const key = new TextEncoder().encode(SECRET);
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').sign(key);
    expect((await new TestClient(server.url, noExp).identity()).status).toBe(401);
    const iat = Math.floor(T0 / 1000);
    const tooLong = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 48 * 3600)
      .sign(key);
    const refused = await new TestClient(server.url, tooLong).identity();
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/longer than this sync server allows/);
    // Without iat, the lifetime left counts.
    const noIat = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime(iat + 48 * 3600)
      .sign(key);
    expect((await new TestClient(server.url, noIat).identity()).status).toBe(401);
    const ok = await tokenFor('alice', { ttlSeconds: 12 * 3600 });
    expect((await new TestClient(server.url, ok).identity()).status).toBe(200);
    // A remembered token still expires on time.
    clock.advance(13 * 3600 * 1000);
    const expired = await new TestClient(server.url, ok).identity();
    expect([expired.status, expired.body.error.code]).toEqual([401, 'token_expired']);
  });

  it('the command line refuses tokens over OHARNESS_SYNC_JWT_MAX_TTL (30 days by default)', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const child = spawnTs('server/main.ts', ['--port', '0', '--data', dir], {
      OHARNESS_SYNC_JWT_SECRET: SECRET,
    });
    cleanups.push(() => killHard(child.child));
    const url = await child.waitFor(/^http:/, 30_000);
    const year = await tokenFor('alice', { now: Date.now(), ttlSeconds: 365 * 24 * 3600 });
    expect((await new TestClient(url, year).identity()).status).toBe(401);
    const month = await tokenFor('alice', { now: Date.now(), ttlSeconds: 30 * 24 * 3600 });
    expect((await new TestClient(url, month).identity()).status).toBe(200);
  }, 60_000);
});
