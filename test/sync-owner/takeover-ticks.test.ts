import { describe, expect, it } from 'vitest';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { eventually } from './children.js';
import { arrives, requestsDuring, rootOnClock, startMcp, useOwnerScene, writeProjectNote } from './device.js';

/**
 * The composition root of a long-running process (as the app, the web bridge and `memdesk mcp`
 * build it) on an injected clock, standing by while a real child process owns sync: it runs no
 * round, then takes over on its first heartbeat after the owner is killed with SIGKILL, and a
 * note written here reaches device B on the 3 s debounce.
 */
const scene = useOwnerScene('ticks-user');

describe('takeover counted in heartbeats', { timeout: 300_000 }, () => {
  it('a standby root runs no round while the owner lives and owns sync one heartbeat after kill -9', async () => {
    const { server, a, b } = scene;
    const holder = await scene.lockHolder(ownerPaths(a.home).lockFile);

    const owner = await rootOnClock(a.home, { projectRoot: a.roots['proj-p']! });
    const { clock, project, ownership, idle } = owner;
    try {
      await writeProjectNote(project, clock, {
        id: 'written-on-standby',
        summary: 'written while another process owns sync',
        body: 'marker-ticks',
      });
      // A live owner: two heartbeats and the debounce pass without a round here.
      expect(await requestsDuring(server, () => clock.advance(4_000, idle))).toBe(0);
      expect(ownership.owner).toBe(false);

      await holder.kill9();
      const ticksAtKill = ownership.ticks;
      await clock.advance(2_000, idle);
      expect(ownership.owner).toBe(true);
      expect(ownership.ticks - ticksAtKill).toBe(1);
      // Its first check runs at once and uploads the note written while standing by.
      await clock.advance(3_000, idle);
      await arrives(b, 'proj-p', 'marker-ticks');
    } finally {
      await owner.close();
    }
  });

  it('the desktop app started while an MCP server owns sync is handed ownership; the MCP server then nudges it', async () => {
    const { a, b } = scene;
    const mcp = await startMcp(a, 'proj-q', { OHARNESS_HOME: a.home });
    try {
      await eventually(() => a.ownerPid() === mcp.pid || null, 'the MCP server owns sync');
      // The app with user notes only: project Q is not open here.
      const app = await rootOnClock(a.home, {});
      const { clock, ownership, idle } = app;
      try {
        // The app's first heartbeat asked; the MCP server lets go on its own next one (and, with
        // a live app waiting, does not take the lock again) ...
        expect(ownership.owner).toBe(false);
        await eventually(() => a.ownerPid() !== mcp.pid || null, 'the MCP server hands over');
        // ... and the app's second heartbeat takes it: 2 s on its clock, well short of a stale lock.
        await clock.advance(2_000, idle);
        expect(ownership.ticks).toBe(2);
        expect(ownership.owner).toBe(true);
        expect(a.ownerPid()).toBe(process.pid);
        await mcp.remember('written in the MCP server after the handover', 'marker-handover');
        await arrives(b, 'proj-q', 'marker-handover', () => clock.advance(3_000, idle));
        expect(a.ownerPid()).toBe(process.pid);
      } finally {
        await app.close();
      }
    } finally {
      await mcp.close();
    }
  });
});
