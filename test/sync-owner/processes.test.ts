import { existsSync, promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { cli } from '../sync/cli-runner.js';
import { eventually, kill9Pid } from './children.js';
import { arrives, rememberOnce, startMcp, useOwnerScene } from './device.js';

/**
 * "Sync from every process that writes notes" with real processes on one home (device A) and the
 * real sync server on loopback: MCP servers (`memdesk mcp`) and one-shot `memdesk remember` runs
 * start, write, exit and are killed with SIGKILL; device B (this process's CLI code on another
 * home) sees every note arrive. No desktop app runs. Every process of device A appends its round
 * starts and ends to one trace file (MEMDESK_SYNC_TRACE), which shows rounds never overlap.
 */
const scene = useOwnerScene('owner-user');

interface TraceLine {
  pid: number;
  event: 'round-start' | 'round-end' | 'killed';
  manual?: boolean;
}

async function traceLines(): Promise<TraceLine[]> {
  return (await fs.readFile(scene.trace, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TraceLine);
}

/** Pids that started rounds, in the trace's lines from `from` on. */
async function roundPids(from = 0): Promise<Set<number>> {
  return new Set(
    (await traceLines())
      .slice(from)
      .filter((l) => l.event === 'round-start')
      .map((l) => l.pid),
  );
}

/** Rounds of two processes never overlap (a process killed mid-round ends its round there). */
async function expectNoOverlap(): Promise<number> {
  const lines = await traceLines();
  let open: number | null = null;
  let rounds = 0;
  const pids = new Set<number>();
  for (const line of lines) {
    if (line.event === 'round-start') {
      expect(open, `round of ${line.pid} started during a round of ${open}`).toBeNull();
      open = line.pid;
      rounds++;
      pids.add(line.pid);
    } else if (line.event === 'round-end' || open === line.pid) {
      if (line.event === 'round-end') expect(line.pid).toBe(open);
      open = null;
    }
  }
  expect(pids.size).toBeGreaterThan(1);
  return rounds;
}

describe('one sync owner per home, real processes', { timeout: 600_000 }, () => {
  it('MCP servers and CLI runs with the app closed: writes reach device B through the owner, a SIGKILLed owner is replaced, a lone CLI write syncs itself', async () => {
    const { env } = scene;
    const lockFile = ownerPaths(scene.a.home).lockFile;

    // The first MCP server becomes the owner; the second one (another project) stands by.
    const mcpP = await scene.ownerMcp('proj-p');
    const mcpQ = await startMcp(scene.a, 'proj-q', env);
    scene.running.push(mcpQ);

    // A note written by the owner reaches device B.
    await mcpP.remember('from the owner', 'marker-owner-p');
    await arrives(scene.b, 'proj-p', 'marker-owner-p');

    // A note written by the standby (its project not open in the owner) is synced by the owner.
    await mcpQ.remember('from the standby', 'marker-standby-q');
    await arrives(scene.b, 'proj-q', 'marker-standby-q');
    expect(scene.a.ownerPid()).toBe(mcpP.pid);
    // `memdesk status` in another process names the owner.
    const status = await cli([...scene.a.args('proj-q'), '--json', 'status'], scene.a.roots['proj-q']!);
    expect(JSON.parse(status.stdout).owner).toMatchObject({ pid: mcpP.pid, role: 'mcp', thisProcess: false });

    // Only the owner ran rounds so far: the standby nudged, it did not sync.
    expect([...(await roundPids())]).toEqual([mcpP.pid]);
    expect(await fs.readdir(ownerPaths(scene.a.home).requestsDir)).toEqual([]);

    // The owner is killed: the standby takes over and syncs its own writes.
    const atKill = (await traceLines()).length;
    await kill9Pid(mcpP.pid);
    await fs.appendFile(scene.trace, JSON.stringify({ pid: mcpP.pid, event: 'killed' }) + '\n');
    await waitFor(() => scene.a.ownerPid() === mcpQ.pid, 'the standby owns sync after the kill');
    await mcpQ.remember('after the takeover', 'marker-takeover-q');
    await arrives(scene.b, 'proj-q', 'marker-takeover-q');

    // A one-shot CLI write while an owner runs: it hands off (the owner opens project P) and exits.
    const handed = await rememberOnce(scene.a, 'proj-p', 'cli with an owner', 'marker-cli-handoff', env);
    expect(handed.code, handed.stderr).toBe(0);
    await arrives(scene.b, 'proj-p', 'marker-cli-handoff');
    expect(scene.a.ownerPid()).toBe(mcpQ.pid);
    expect([...(await roundPids(atKill))]).toEqual([mcpQ.pid]);

    // The last long-running process exits: the lock is released, not left behind.
    await mcpQ.close();
    await waitFor(() => !existsSync(lockFile), 'the lock is released on exit');

    // A one-shot CLI write with no owner: one bounded round of its own before it exits.
    const alone = await rememberOnce(scene.a, 'proj-p', 'cli alone', 'marker-cli-alone', env);
    expect(alone.code, alone.stderr).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
    await arrives(scene.b, 'proj-p', 'marker-cli-alone');
    const none = await cli([...scene.a.args('proj-p'), 'status'], scene.a.roots['proj-p']!);
    expect(none.stdout).toMatch(/sync owner on this computer: none running/);
    expect(await roundPids()).toContain(alone.pid);
    expect(await roundPids()).not.toContain(handed.pid);

    expect(await expectNoOverlap()).toBeGreaterThan(3);
  });
});

function waitFor(check: () => boolean, what: string): Promise<boolean> {
  return eventually(() => check() || null, what);
}
