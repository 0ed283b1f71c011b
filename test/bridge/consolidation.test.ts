import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ROUND_DELAY_MS, type RoundReport } from '../../electron/cleanup/consolidation.js';
import { NO_MODEL_REASON } from '../../electron/cleanup/cleanup-service.js';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { FakeClock } from '../sync/fake-clock.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { tempDir } from '../support/temp-dir.js';

/** Background consolidation starts with the web bridge and stops with it (issue 7). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const open: Array<{ bridge: WebBridge; root: string }> = [];
afterEach(async () => {
  for (const { bridge, root } of open.splice(0)) {
    await bridge.close();
    await fs.rm(root, { recursive: true, force: true });
  }
});

async function start(opts: { sync: boolean }): Promise<{
  bridge: WebBridge;
  clock: FakeClock;
  rounds: RoundReport[];
  close: () => Promise<void>;
}> {
  const root = await tempDir('consolidation');
  const home = path.join(root, 'home');
  const projectRoot = path.join(root, 'project');
  await seedSampleNotes(defaultSeedDirs(home, projectRoot));
  const clock = new FakeClock();
  const rounds: RoundReport[] = [];
  const bridge = await startWebBridge({
    home,
    projectRoot,
    port: 0,
    staticDir: root,
    watch: false,
    sync: opts.sync ? { autoStart: false } : false,
    consolidation: { timers: clock, now: () => clock.now(), onRound: (r) => rounds.push(r) },
  });
  const entry = { bridge, root };
  open.push(entry);
  return {
    bridge,
    clock,
    rounds,
    close: async () => {
      open.splice(open.indexOf(entry), 1);
      await bridge.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

describe('background consolidation in the web bridge', () => {
  it('starts with the bridge: the first round two minutes after start, off while the plan is not known to be paid; stopped on close', async () => {
    const { bridge, clock, rounds, close } = await start({ sync: false });
    const t0 = clock.now();
    expect(bridge.cleanup).not.toBeNull();
    expect(clock.next()).toBe(t0 + FIRST_ROUND_DELAY_MS);
    await clock.advance(FIRST_ROUND_DELAY_MS - 1, () => bridge.cleanup!.consolidator.whenIdle());
    expect(rounds).toEqual([]);
    await clock.advance(1, () => bridge.cleanup!.consolidator.whenIdle());
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ at: t0 + FIRST_ROUND_DELAY_MS, ran: false });
    expect(rounds[0]!.skipped).toMatch(/paid plans/);
    // The page's handlers use the same CleanupService.
    expect(await bridge.context.cleanup.service()).toBe(bridge.cleanup!.service);
    expect(clock.next()).not.toBeNull();
    await close();
    // Stopped: no timer left, and time passing runs nothing.
    expect(clock.next()).toBeNull();
    await clock.advance(48 * 3600_000);
    expect(rounds).toHaveLength(1);
  });

  it('reads the plan from the sync server\'s last answer: a paid account turns "subscribers" on', async () => {
    const { bridge, clock, rounds } = await start({ sync: true });
    expect(bridge.sync!.knownPlan()).toBeNull();
    await bridge.sync!.engine.login(server.url, await server.token('consolidation-paid', 'paid'));
    await bridge.sync!.engine.syncNow();
    expect(bridge.sync!.knownPlan()).toBe('paid');
    await clock.advance(FIRST_ROUND_DELAY_MS, () => bridge.cleanup!.consolidator.whenIdle());
    expect(rounds).toHaveLength(1);
    // On (paid), so it got as far as the model, which is not configured here.
    expect(rounds[0]!.skipped).toBe(NO_MODEL_REASON);
  });

  it('a free account keeps it off', async () => {
    const { bridge, clock, rounds } = await start({ sync: true });
    await bridge.sync!.engine.login(server.url, await server.token('consolidation-free', 'free'));
    await bridge.sync!.engine.syncNow();
    expect(bridge.sync!.knownPlan()).toBe('free');
    await clock.advance(FIRST_ROUND_DELAY_MS, () => bridge.cleanup!.consolidator.whenIdle());
    expect(rounds[0]!.skipped).toMatch(/paid plans/);
  });
});
