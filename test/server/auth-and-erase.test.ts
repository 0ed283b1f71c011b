import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { SYNC_ROUTES } from '../../shared/sync-protocol.js';
import type { RunningSyncServer } from '../../server/app.js';
import { eraseMarkerKey } from '../../server/storage-keys.js';
import {
  ADMIN_KEY,
  makeStorage,
  tempDir,
  PROJECT,
  put,
  startTestServer,
  testClock,
  TestClient,
  tokenFor,
  USER_SCOPE,
  T0,
  type AdapterKind,
} from './helpers.js';

const running: RunningSyncServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const c of cleanups.splice(0)) await c();
});

async function setup(kind: AdapterKind = 'fs', options: Record<string, unknown> = {}) {
  const made = await makeStorage(kind);
  cleanups.push(made.cleanup);
  const clock = testClock();
  const lines: string[] = [];
  const server = await startTestServer({
    storage: made.storage,
    now: clock.now,
    log: (l) => lines.push(l),
    ...options,
  });
  running.push(server);
  return { made, clock, server, lines };
}

describe('authentication: every way in without a valid token is refused', () => {
  it('no token, a malformed header, a forged token, an expired one, no subject', async () => {
    const { server, clock } = await setup();
    const routes = [
      (c: TestClient) => c.identity(),
      (c: TestClient) => c.snapshot({ scope: PROJECT, sinceVersion: null }),
      (c: TestClient) => c.commit({ scope: PROJECT, puts: [put('a', 'x\n')] }),
    ];
    const forged = await tokenFor('alice', { secret: 'someone-elses-secret' });
    const expiring = await tokenFor('alice', { ttlSeconds: 60 });
    const noSub = await new SignJWT({ ent: { plan: 'paid' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(T0 / 1000)
      .setExpirationTime(T0 / 1000 + 60)
      .sign(new TextEncoder().encode('test-secret-for-sync-server-tests'));
    const none = await new SignJWT({ sub: 'alice' })
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode('test-secret-for-sync-server-tests-with-more-bytes-for-hs512-keys!!'));
    for (const route of routes) {
      for (const [token, code] of [
        [null, 'unauthorized'],
        ['not-a-jwt', 'unauthorized'],
        [forged, 'unauthorized'],
        [noSub, 'unauthorized'],
        [none, 'unauthorized'],
      ] as const) {
        const reply = await route(new TestClient(server.url, token));
        expect([reply.status, reply.body.error.code]).toEqual([401, code]);
        expect(reply.body.limits).toBeUndefined();
      }
      const raw = await fetch(server.url + SYNC_ROUTES.identity, {
        headers: { authorization: 'Basic YWxpY2U6cHc=', 'x-memory-sync-protocol': '2' },
      });
      expect(raw.status).toBe(401);
    }
    expect((await new TestClient(server.url, expiring).identity()).status).toBe(200);
    clock.advance(61_000);
    const expired = await new TestClient(server.url, expiring).identity();
    expect([expired.status, expired.body.error.code]).toEqual([401, 'token_expired']);
    // Nothing reached storage.
    expect(await running[0]!.storage.list('users/')).toEqual([]);
  });

  it('a user token is never accepted on the admin route, nor a missing or wrong admin key', async () => {
    const { server, made } = await setup();
    const alice = new TestClient(server.url, await tokenFor('alice'));
    await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n')] });
    const erase = (auth: string | null) =>
      fetch(server.url + SYNC_ROUTES.erase, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ userId: 'alice' }),
      });
    const asUser = await erase(`Bearer ${alice.token}`);
    expect([asUser.status, ((await asUser.json()) as { error: { code: string } }).error.code]).toEqual([
      403,
      'forbidden',
    ]);
    const wrong = await erase('Bearer wrong-key');
    expect(wrong.status).toBe(403);
    const missing = await erase(null);
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'unauthorized',
    ]);
    expect(await made.storage.get(eraseMarkerKey('alice'))).toBeNull();
    expect((await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body.entries).toHaveLength(1);

    const noKeyServer = await startTestServer({
      storage: made.make(),
      adminKey: undefined as unknown as string,
    });
    // (no user requests go to this one: only the admin route)
    running.push(noKeyServer);
    const disabled = await fetch(noKeyServer.url + SYNC_ROUTES.erase, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      body: '{"userId":"alice"}',
    });
    const body = (await disabled.json()) as { error: { code: string; message: string } };
    expect([disabled.status, body.error.code]).toEqual([403, 'forbidden']);
    expect(body.error.message).toMatch(/OHARNESS_SYNC_ADMIN_KEY/);
  });

  it('verifies tokens of an external identity provider through its JWKS URL', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const jwks = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    try {
      const { server } = await setup('fs', {
        jwtSecret: undefined,
        jwksUrl: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
        issuer: 'https://id.example',
        audience: 'memory-sync',
      });
      const sign = (claims: { iss: string; aud: string }) =>
        new SignJWT({ ent: { plan: 'pro' } })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setSubject('idp|user-42')
          .setIssuer(claims.iss)
          .setAudience(claims.aud)
          .setIssuedAt(T0 / 1000)
          .setExpirationTime(T0 / 1000 + 600)
          .sign(privateKey);
      const ok = await new TestClient(
        server.url,
        await sign({ iss: 'https://id.example', aud: 'memory-sync' }),
      ).identity();
      expect(ok.status).toBe(200);
      expect(ok.body.userId).toBe('idp|user-42');
      expect(ok.body.limits.plan).toBe('paid');
      const wrongAud = await new TestClient(
        server.url,
        await sign({ iss: 'https://id.example', aud: 'other' }),
      ).identity();
      expect(wrongAud.status).toBe(401);
      // An HS256 token made with the public key as secret (algorithm confusion) is refused.
      // The identity provider is unreachable: a 503 to retry later, not a 401 that would sign people out.
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const deadPort = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const offlineDir = await tempDir();
      cleanups.push(() => rm(offlineDir, { recursive: true, force: true }));
      const offline = await startTestServer({
        storage: { kind: 'fs', dir: offlineDir },
        jwtSecret: undefined,
        jwksUrl: `http://127.0.0.1:${deadPort}/jwks.json`,
        issuer: 'https://id.example',
        audience: 'memory-sync',
      });
      running.push(offline);
      const down = await new TestClient(
        offline.url,
        await sign({ iss: 'https://id.example', aud: 'memory-sync' }),
      ).identity();
      expect([down.status, down.body.error.code]).toEqual([503, 'auth_unavailable']);
      const hs = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('x')
        .sign(new TextEncoder().encode(JSON.stringify(jwk)));
      expect((await new TestClient(server.url, hs).identity()).status).toBe(401);
    } finally {
      await new Promise((r) => jwks.close(r));
    }
  });

  it('never writes tokens or the admin key to its log', async () => {
    const { server, lines } = await setup();
    const token = await tokenFor('alice');
    await new TestClient(server.url, token).identity();
    await fetch(server.url + SYNC_ROUTES.erase, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      body: '{"userId":"zed"}',
    });
    const log = lines.join('\n');
    expect(log).toMatch(/identity 200/);
    expect(log).not.toContain(token);
    expect(log).not.toContain(ADMIN_KEY);
    expect(log).not.toContain('alice');
  });
});

describe.each<AdapterKind>(['fs', 's3'])('isolation and erase over %s storage', (kind) => {
  it("users never see each other's notes, whatever scope they name", async () => {
    const { server, made } = await setup(kind);
    const alice = new TestClient(server.url, await tokenFor('alice'));
    const bob = new TestClient(server.url, await tokenFor('bob'));
    const evil = new TestClient(server.url, await tokenFor('../alice'));
    await alice.commit({ scope: PROJECT, puts: [put('secret', 'alice only\n')] });
    await alice.commit({ scope: USER_SCOPE, puts: [put('me', 'alice\n', null, { type: 'user' })] });
    for (const client of [bob, evil]) {
      for (const scope of [PROJECT, USER_SCOPE]) {
        const list = (await client.snapshot({ scope, sinceVersion: null })).body;
        expect(list.entries).toEqual([]);
        expect(list.objects).toEqual([]);
      }
      // Writing the same project id lands in the caller's own space.
      expect(
        (await client.commit({ scope: PROJECT, puts: [put('secret', 'overwrite?\n')] })).body.applied,
      ).toHaveLength(1);
    }
    const aliceList = (await alice.snapshot({ scope: PROJECT, sinceVersion: null })).body;
    expect(aliceList.objects.map((o: { content: string }) => o.content.trim().split('\n').pop())).toEqual([
      'alice only',
    ]);
    const keys = await made.storage.list('users/');
    expect(keys.some((k) => k.startsWith('users/~2E~2E~2Falice/'))).toBe(true);
    expect(keys.filter((k) => k.startsWith('users/alice/'))).toHaveLength(4);
  });

  it('erase writes the marker first, refuses the account from then on, removes its objects, and is idempotent', async () => {
    const { server, made, clock } = await setup(kind);
    const alice = new TestClient(server.url, await tokenFor('alice'));
    const bob = new TestClient(server.url, await tokenFor('bob'));
    await alice.commit({ scope: PROJECT, puts: [put('a', 'x\n'), put('b', 'y\n')] });
    await alice.commit({ scope: USER_SCOPE, puts: [put('u', 'z\n')] });
    await bob.commit({ scope: PROJECT, puts: [put('a', 'bob\n')] });
    const eraseAlice = () =>
      fetch(server.url + SYNC_ROUTES.erase, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 'alice' }),
      });
    const first = await eraseAlice();
    expect(first.status).toBe(200);
    // Two manifests, the pack of a and b, the object of u.
    expect(await first.json()).toEqual({ userId: 'alice', erased: true, removedObjects: 4 });
    expect(await made.storage.get(eraseMarkerKey('alice'))).not.toBeNull();
    expect(await made.storage.list('users/alice/')).toEqual([]);
    for (const reply of [
      await alice.identity(),
      await alice.snapshot({ scope: PROJECT, sinceVersion: null }),
      await alice.commit({ scope: PROJECT, puts: [put('again', 'x\n')] }),
    ]) {
      expect([reply.status, reply.body.error.code]).toEqual([410, 'account_erased']);
    }
    expect(await made.storage.list('users/alice/')).toEqual([]);
    const second = await eraseAlice();
    expect(await second.json()).toEqual({ userId: 'alice', erased: true, removedObjects: 0 });
    // Another server process on the same storage refuses the account too (the marker is in storage).
    const other = await startTestServer({ storage: made.make(), now: clock.now });
    running.push(other);
    expect((await new TestClient(other.url, alice.token).identity()).status).toBe(410);
    expect((await bob.snapshot({ scope: PROJECT, sinceVersion: null })).body.entries).toHaveLength(1);
    const bad = await fetch(server.url + SYNC_ROUTES.erase, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      body: '{}',
    });
    expect(bad.status).toBe(400);
  });
});
