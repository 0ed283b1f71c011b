import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import { ProjectHost } from '../../electron/app/project-host.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { FakeClock } from './fake-clock.js';
import { startDevice, startTestServer, tempDir, type Device, type TestServer } from './harness.js';

/**
 * A project switch in a long-running process (the desktop app's ProjectHost, plain Node): the new
 * project opens (and attaches to the root's sync engine) before the old
 * project's core closes and its sync attachments are released, so the shared user-notes service
 * moves to the new core's open store and a local write there is uploaded on the debounce.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('project switch', () => {
  it('after one project closes and another opens on the same home, a user note written there is uploaded on the debounce', async () => {
    const token = await server.token('switch-user');
    const home = await tempDir('switch-home');
    const clock = new FakeClock();
    const root = createAppRoot({
      home,
      env: { OHARNESS_HOME: home },
      sync: { tokens: new MemoryTokenStore(), clock, autoStart: true },
      syncOnOpen: true,
    });
    const { engine } = await root.sync();
    await engine.login(server.url, token);
    const host = new ProjectHost(root, { watch: false });
    cleanups.push(async () => {
      await host.close();
      await root.stop();
    });
    const idle = (): Promise<void> => engine.coordinator.idle();

    await host.open(await tempDir('switch-project-a'));
    await clock.advance(0, idle);
    await host.open(await tempDir('switch-project-b'));
    await clock.advance(0, idle);
    const userSvc = engine.all().find((s) => s.scope === 'user')!;
    const core = host.context!.core;
    expect(userSvc.store).toBe(core.user.store);

    const requestsBefore = server.requests.length;
    await core.user.store!.write({
      id: 'after-switch',
      summary: 'written after the project switch',
      tags: [],
      body: 'hello from project b\n',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    await clock.advance(2_999, idle);
    expect(server.requests.slice(requestsBefore).some((r) => r.includes('/commit'))).toBe(false);
    await clock.advance(1, idle);
    expect(server.requests.slice(requestsBefore).some((r) => r.includes('/commit'))).toBe(true);

    const other: Device = await startDevice('switch-other', server, { token });
    cleanups.push(() => other.close());
    await other.sync();
    expect(other.get('after-switch')?.body).toBe('hello from project b\n');
  });

  it('closing the last core stops its directories syncing', async () => {
    const home = await tempDir('switch-home');
    const clock = new FakeClock();
    const root = createAppRoot({
      home,
      env: { OHARNESS_HOME: home },
      sync: { tokens: new MemoryTokenStore(), clock },
      syncOnOpen: true,
    });
    const { engine } = await root.sync();
    const host = new ProjectHost(root, { watch: false });
    await host.open(await tempDir('switch-project-a'));
    expect(engine.all().map((s) => s.scope)).toEqual(['user']);
    await host.close();
    expect(engine.all()).toEqual([]);
    await root.stop();
  });
});
