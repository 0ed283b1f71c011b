import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeKeyHash } from '../../electron/sync/scope-key.js';
import { UnavailableStorage } from '../../server/index.js';
import { startFaultProxy } from './fault-proxy.js';
import {
  startDevice,
  startProjectDevice,
  startTestServer,
  tempDir,
  type Device,
  type TestServer,
  useTestServer,
} from './harness.js';

let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

async function device(
  name = 'a',
  user = `user-${++n}`,
  srv: { url: string; token?: unknown } = server,
): Promise<Device> {
  const d = await startDevice(name, srv, { token: await server.token(user) });
  open.push(d);
  return d;
}

describe('关闭云同步 (the toggle)', () => {
  it('off blocks every automatic and manual request (counted at the server) and persists in plugins.json', async () => {
    const a = await device();
    await a.write('x', '1\n');
    await a.sync();
    await a.engine.setEnabled([a.svc], false);
    const before = server.requests.length;
    await a.write('y', '2\n');
    expect((await a.sync()).outcome).toBe('blocked');
    await a.clock.advance(30 * 60_000, () => a.engine.coordinator.idle());
    expect(server.requests.length).toBe(before);
    // Local memory keeps working.
    expect(a.ids()).toEqual(['x', 'y']);
    const plugins = JSON.parse(await fs.readFile(path.join(a.home, 'plugins.json'), 'utf8'));
    const memory = plugins.runtimePlugins.find((p: { id: string }) => p.id === 'memory');
    expect(memory.config.syncTargets[scopeKeyHash({ scope: 'user' })]).toMatchObject({
      enabled: false,
      origin: new URL(server.url).origin,
    });
    expect(JSON.stringify(plugins)).not.toMatch(/eyJ/); // no token in plugins.json
    const status = await a.engine.status(a.svc);
    expect(status.enabled).toBe(false);
  });

  it('stays off across a restart and a new sign-in, until turned on explicitly', async () => {
    const a = await device();
    await a.engine.setEnabled([a.svc], false);
    await a.close();
    const token = await server.token(`user-${n}`);
    const again = await startDevice('a2', server, { token, home: a.home });
    open.push(again);
    await again.engine.logout();
    await again.engine.login(server.url, token);
    const before = server.requests.length;
    expect((await again.sync()).outcome).toBe('blocked');
    expect(server.requests.length).toBe(before);
    await again.engine.setEnabled([again.svc], true);
    expect((await again.sync()).outcome).toBe('ok');
    expect(server.requests.length).toBeGreaterThan(before);
  });

  it('a project opened for the first time after sync was turned off does not start syncing', async () => {
    const token = await server.token(`user-${++n}`);
    const root = await tempDir('proj-off');
    const dev = await startProjectDevice('p', server, token, root);
    const user = dev.engine.attachUser(dev.core.user)!.service;
    await dev.engine.setEnabled([user], false);
    const project = dev.engine.attachProject(dev.core)!.service;
    await project.store.write({
      id: 'private',
      summary: 'p',
      tags: [],
      body: 'x\n',
      createdAt: 1,
      updatedAt: 1,
    });
    const before = server.requests.length;
    expect((await dev.engine.syncNow([project])).get(project)?.outcome).toBe('blocked');
    expect(server.requests.length).toBe(before);
    expect((await dev.engine.status(project)).enabled).toBe(false);
    dev.engine.stop();
  });

  it('off aborts a request in flight', async () => {
    const proxy = await startFaultProxy(server.url, () => 'hold');
    try {
      const a = await startDevice('a', proxy, { token: await server.token(`user-${++n}`) });
      open.push(a);
      const held = new Promise<void>((resolve) => (proxy.onHold = () => resolve()));
      const round = a.sync();
      await held;
      await a.engine.setEnabled([a.svc], false);
      expect((await round).outcome).toBe('blocked');
      await new Promise((r) => setTimeout(r, 50));
      expect(proxy.abortedWhileHeld).toBe(1);
      expect((await a.engine.status(a.svc)).error).toBeNull();
    } finally {
      await proxy.close();
    }
  });
});

describe('identity', () => {
  it('signing in turns sync on by default; tokens go to the token store, the URL to cloud.json', async () => {
    const home = await tempDir('signin');
    const { SyncEngine } = await import('../../electron/sync/sync-engine.js');
    const engine = new SyncEngine({ home });
    await engine.login(server.url, await server.token('cli-user'));
    const cloud = JSON.parse(await fs.readFile(path.join(home, 'cloud.json'), 'utf8'));
    expect(cloud).toEqual({ url: server.url });
    const tokenFile = path.join(home, 'credentials', 'sync-token.json');
    expect((await fs.stat(tokenFile)).mode & 0o777).toBe(0o600);
    await expect(fs.readFile(path.join(home, 'plugins.json'), 'utf8')).rejects.toThrow();
    engine.stop();
  });

  it('a scope is bound to the first account and origin: another account pauses sync with an explanation', async () => {
    const a = await device('a', 'first-account');
    await a.write('mine', 'x\n');
    await a.sync();
    await a.engine.login(server.url, await server.token('second-account'));
    const before = server.requests.length;
    expect((await a.sync()).outcome).toBe('blocked');
    const status = await a.engine.status(a.svc);
    expect(status.error?.code).toBe('account_mismatch');
    expect(status.error?.message).toMatch(/first-account/);
    expect(status.error?.message).toMatch(/second-account/);
    expect(status.error?.scope).toBe('user');
    // Only the identity check reached the server; nothing of the other account's was read or written.
    expect(server.requests.slice(before).every((l) => /identity/.test(l))).toBe(true);
    expect(a.ids()).toEqual(['mine']);
  });
});

describe('errors are visible, name the scope, and local memory keeps working', () => {
  it('a 429 pauses every directory until Retry-After, and says sync ran too often', async () => {
    const proxy = await startFaultProxy(server.url, ({ url }) =>
      url.includes('snapshot') ? { rate429: 120 } : 'pass',
    );
    try {
      const a = await startDevice('a', proxy, { token: await server.token(`user-${++n}`) });
      open.push(a);
      const result = await a.sync();
      expect(result).toEqual({ outcome: 'rate_limited', retryAfterMs: 120_000 });
      const status = await a.engine.status(a.svc);
      expect(status.error?.code).toBe('rate_limited');
      expect(status.error?.message).toMatch(/too often and will retry/);
      expect(status.pausedUntil).toBe(a.clock.now() + 120_000);
    } finally {
      await proxy.close();
    }
  });

  it('offline: a visible error; the note is still written here', async () => {
    const a = await startDevice('a', { url: 'http://127.0.0.1:9' }, { token: await server.token('offline') });
    open.push(a);
    await a.write('local', 'still works\n');
    expect((await a.sync()).outcome).toBe('transient');
    const status = await a.engine.status(a.svc);
    expect(status.error).toMatchObject({ code: 'offline', scope: 'user' });
    expect(status.error?.message).toMatch(/^Your own notes: cannot reach the sync server/);
    expect(a.get('local')?.body).toBe('still works\n');
  });

  it('storage misconfigured on the server: a visible storage error', async () => {
    const broken = await startTestServer({ storage: new UnavailableStorage('no bucket configured (test)') });
    try {
      const a = await startDevice('a', broken, { token: await broken.token('s') });
      open.push(a);
      await a.write('k', 'kept\n');
      expect((await a.sync()).outcome).toBe('transient');
      const status = await a.engine.status(a.svc);
      expect(status.error?.code).toBe('storage_unavailable');
      expect(a.ids()).toEqual(['k']);
    } finally {
      await broken.close();
    }
  });

  it('a server too old for user notes says so', async () => {
    const old = await startTestServer({ protocol: { min: 1, current: 1 } });
    try {
      const a = await startDevice('a', old, { token: await old.token('o') });
      open.push(a);
      expect((await a.sync()).outcome).toBe('blocked');
      expect((await a.engine.status(a.svc)).error).toMatchObject({ code: 'server_too_old', scope: 'user' });
    } finally {
      await old.close();
    }
  });

  it('a server too new for this client says so', async () => {
    const future = await startTestServer({ protocol: { min: 4, current: 4 } });
    try {
      const a = await startDevice('a', future, { token: await future.token('f') });
      open.push(a);
      expect((await a.sync()).outcome).toBe('blocked');
      expect((await a.engine.status(a.svc)).error?.code).toBe('client_too_old');
    } finally {
      await future.close();
    }
  });

  it('a transient server error (500) is retried; nothing is lost', async () => {
    let fail = true;
    const proxy = await startFaultProxy(server.url, ({ url }) =>
      fail && url.includes('commit') ? 'error500' : 'pass',
    );
    try {
      const a = await startDevice('a', proxy, { token: await server.token(`user-${++n}`) });
      open.push(a);
      await a.write('w', 'x\n');
      expect((await a.sync()).outcome).toBe('transient');
      fail = false;
      expect((await a.sync()).outcome).toBe('ok');
      expect(Object.keys((await a.svc.state()).base)).toEqual(['w']);
    } finally {
      await proxy.close();
    }
  });
});
