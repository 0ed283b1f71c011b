import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../electron/sync/request-budget.js';
import { FakeClock } from './fake-clock.js';
import { startFaultProxy, type Fault } from './fault-proxy.js';
import {
  startDevice,
  startProjectDevice,
  tempDir,
  type Device,
  type TestServer,
  useTestServer,
} from './harness.js';

/** R-SYNC-SCHED with an injected clock, real sync services and a real server: no sleeping. */
let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

async function device(srv: { url: string } = server, user = `user-${++n}`): Promise<Device> {
  const d = await startDevice('a', srv, { token: await server.token(user) });
  open.push(d);
  return d;
}

const settle = (d: Device) => () => d.engine.coordinator.idle();
const count = (from: number, re: RegExp) => server.requests.slice(from).filter((l) => re.test(l)).length;

describe('scheduling', () => {
  it('checks at start, then a burst of local writes is one round ~3 s after the last write', async () => {
    const d = await device();
    await d.clock.advance(0, settle(d));
    const before = server.requests.length;
    await d.write('a', '1\n');
    await d.clock.advance(1000, settle(d));
    await d.write('b', '2\n');
    await d.clock.advance(1000, settle(d));
    await d.write('c', '3\n');
    await d.clock.advance(2900, settle(d));
    expect(count(before, /commit/)).toBe(0);
    await d.clock.advance(100, settle(d));
    expect(count(before, /commit/)).toBe(1);
    expect(Object.keys((await d.svc.state()).base).sort()).toEqual(['a', 'b', 'c']);
  });

  it('polls every minute, thinning to every five while nothing changes; a change brings it back to one', async () => {
    const d = await device();
    await d.clock.advance(0, settle(d));
    const gaps: number[] = [];
    let last = d.clock.now();
    for (let i = 0; i < 6; i++) {
      const due = d.engine.coordinator.dueAt(d.svc.key)!;
      gaps.push(due - last);
      last = due;
      await d.clock.advance(due - d.clock.now(), settle(d));
    }
    expect(gaps).toEqual([60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
    // Another device changes something: the next check sees it and polling is back to a minute.
    const other = await startDevice('b', server, { token: await server.token(`user-${n}`) });
    open.push(other);
    await other.write('remote', 'x\n');
    await other.sync();
    await d.clock.advance(300_000, settle(d));
    expect(d.get('remote')?.body).toBe('x\n');
    expect(d.engine.coordinator.dueAt(d.svc.key)! - d.clock.now()).toBe(60_000);
  });

  it('checks a project only while in use and 30 minutes after; user notes always', async () => {
    const token = await server.token(`user-${++n}`);
    const root = await tempDir('proj');
    const dev = await startProjectDevice('p', server, token, root);
    const project = dev.engine.attachProject(dev.core)!.service;
    const user = dev.engine.attachUser(dev.core.user)!.service;
    const idle = () => dev.engine.coordinator.idle();
    await dev.clock.advance(31 * 60_000, idle);
    expect(dev.engine.coordinator.dueAt(project.key)).toBeNull();
    expect(dev.engine.coordinator.dueAt(user.key)).not.toBeNull();
    const before = server.requests.length;
    await dev.clock.advance(60 * 60_000, idle);
    const projectSnapshots = server.requests.slice(before).filter((l) => /snapshot/.test(l)).length;
    // Only the user directory was checked during that hour (every five minutes once thinned).
    expect(projectSnapshots).toBeLessThanOrEqual(13);
    expect(projectSnapshots).toBeGreaterThanOrEqual(11);
    // The project is used again (a message sent, the page open): checked at once.
    dev.engine.coordinator.markInUse(project.key);
    expect(dev.engine.coordinator.dueAt(project.key)).toBe(dev.clock.now());
    dev.engine.stop();
  });

  it('keeps to the request budget per process', async () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(clock, 20);
    for (let i = 0; i < 20; i++) budget.record();
    expect(budget.delayFor()).toBe(60_000);
    clock.t += 30_000;
    expect(budget.delayFor()).toBe(30_000);
    clock.t += 30_000;
    expect(budget.delayFor()).toBe(0);

    // Through the coordinator: a budget of 3 a minute spreads automatic requests out.
    const token = await server.token(`user-${++n}`);
    const times: number[] = [];
    let clockRef: FakeClock | null = null;
    // Records when each request leaves (by the device's clock), then sends it for real.
    const timedFetch: typeof fetch = (input, init) => {
      times.push(clockRef!.now());
      return fetch(input, init);
    };
    const d = await startDevice('a', server, {
      token,
      engine: { scheduling: { requestsPerMinute: 3 }, fetch: timedFetch },
    });
    clockRef = d.clock;
    open.push(d);
    const settled = () => d.engine.coordinator.settled();
    for (let i = 0; i < 8; i++) {
      await d.write(`n${i}`, `${i}\n`);
      await d.clock.advance(4000, settled);
    }
    await d.clock.advance(5 * 60_000, settled);
    expect(times.length).toBeGreaterThan(6);
    for (let i = 3; i < times.length; i++) expect(times[i]! - times[i - 3]!).toBeGreaterThanOrEqual(60_000);
    expect(Object.keys((await d.svc.state()).base)).toHaveLength(8);
  });

  it('a 429 pauses every directory until Retry-After; sync now still runs at once', async () => {
    let fault: Fault = 'pass';
    const proxy = await startFaultProxy(server.url, () => fault);
    try {
      const token = await server.token(`user-${++n}`);
      const root = await tempDir('proj');
      const dev = await startProjectDevice('p', proxy, token, root);
      const project = dev.engine.attachProject(dev.core)!.service;
      const user = dev.engine.attachUser(dev.core.user)!.service;
      const idle = () => dev.engine.coordinator.idle();
      await dev.clock.advance(0, idle);
      fault = { rate429: 300 };
      await dev.clock.advance(60_000, idle);
      const now = dev.clock.now();
      expect(dev.engine.coordinator.pausedUntil).toBe(now + 300_000);
      expect(dev.engine.coordinator.dueAt(project.key)).toBeGreaterThanOrEqual(now + 300_000);
      expect(dev.engine.coordinator.dueAt(user.key)).toBeGreaterThanOrEqual(now + 300_000);
      const status = await dev.engine.status(user);
      expect(status.error?.message).toMatch(/too often and will retry/);
      fault = 'pass';
      const seen = proxy.seen.length;
      await dev.clock.advance(299_000, idle);
      expect(proxy.seen.length).toBe(seen);
      // 立即同步 runs at once, pause or not.
      const results = await dev.engine.syncNow([user]);
      expect(results.get(user)?.outcome).toBe('ok');
      expect(proxy.seen.length).toBeGreaterThan(seen);
      dev.engine.stop();
    } finally {
      await proxy.close();
    }
  });

  it('transient errors retry after 60 s', async () => {
    let fault: Fault = 'pass';
    const proxy = await startFaultProxy(server.url, () => fault);
    try {
      const d = await device(proxy);
      await d.clock.advance(0, settle(d));
      fault = 'error500';
      await d.write('t', 'x\n');
      await d.clock.advance(3000, settle(d));
      expect(d.engine.coordinator.dueAt(d.svc.key)).toBe(d.clock.now() + 60_000);
      expect((await d.engine.status(d.svc)).error?.scope).toBe('user');
      fault = 'pass';
      await d.clock.advance(60_000, settle(d));
      expect((await d.svc.state()).base['t']).toBeDefined();
      expect((await d.engine.status(d.svc)).error).toBeNull();
    } finally {
      await proxy.close();
    }
  });

  it('external edits on disk are picked up by the watcher and uploaded', async () => {
    const d = await device();
    d.user.store!.watch();
    await d.clock.advance(0, settle(d));
    const file = path.join(d.user.store!.dir, 'from-editor.md');
    await fs.writeFile(
      file,
      '---\n{"id":"from-editor","summary":"typed in an editor","tags":[]}\n---\nhello\n',
    );
    for (let i = 0; i < 100 && !d.get('from-editor'); i++) await new Promise((r) => setTimeout(r, 20));
    await d.clock.advance(3000, settle(d));
    expect((await d.svc.state()).base['from-editor']).toBeDefined();
  });
});
