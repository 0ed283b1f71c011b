import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import {
  arrives,
  readTrace,
  rememberOnce,
  requestsDuring,
  rootOnClock,
  useOwnerScene,
  writeProjectNote,
} from './device.js';

/**
 * The owner (a composition root on an injected clock) while a real child process holds the home's
 * sync, as an encryption change does (electron/sync/owner/sync-hold.ts): on its next heartbeat it
 * runs no more automatic rounds — a note written here waits — and 立即同步 says which process
 * holds the sync; when the holder is killed with SIGKILL, the owner's next heartbeat resumes and
 * the note reaches device B. And the holder keeps the home's rounds lock for the whole change: a
 * one-shot CLI write meanwhile, with no owner running, runs no round of its own (its bounded exit
 * round waits, then leaves a nudge for the next owner).
 */
const scene = useOwnerScene('hold-ticks-user');

describe('the owner while another process holds the home’s sync', { timeout: 300_000 }, () => {
  it('pauses its automatic rounds, refuses 立即同步 with the holder named, and resumes after its kill -9', async () => {
    const { server, a, b } = scene;
    const owner = await rootOnClock(a.home, { projectRoot: a.roots['proj-p']! });
    const { clock, project, sync, ownership, idle } = owner;
    try {
      expect(ownership.owner).toBe(true);
      await clock.advance(1_000, idle); // its first checks run

      const holder = await scene.lockHolder(ownerPaths(a.home).holdFile);
      await clock.advance(2_000, idle); // the heartbeat that sees the hold
      expect(sync.held).toBe(true);
      expect(ownership.owner).toBe(true);

      await writeProjectNote(project, clock, {
        id: 'written-during-hold',
        summary: 'written while an encryption change holds the sync',
        body: 'marker-hold',
      });
      // Past the debounce and two more heartbeats: no round, no request.
      expect(await requestsDuring(server, () => clock.advance(6_000, idle))).toBe(0);
      await expect(project.handlers['sync.now']({})).rejects.toThrow(
        new RegExp(`end-to-end encryption is being changed .* in process ${holder.pid} \\(mcp\\)`),
      );

      await holder.kill9();
      await clock.advance(2_000, idle);
      expect(sync.held).toBe(false);
      await clock.advance(3_000, idle);
      await arrives(b, 'proj-p', 'marker-hold');
    } finally {
      await owner.close();
    }
  });

  it('a CLI write during the change runs no round: its exit round waits on the held rounds lock and leaves a nudge', async () => {
    const { a, env, trace } = scene;
    const root = createAppRoot({ home: a.home, env: {}, sync: {} });
    const project = await root.open({ projectRoot: a.roots['proj-p']!, watch: false });
    const sync = await root.sync();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const change = sync.holdRounds(async () => {
      holding();
      await ended;
    });
    await held;
    try {
      const run = await rememberOnce(a, 'proj-p', 'written during the change', 'marker-cli-hold', env);
      expect(run.code, run.stderr).toBe(0);
      expect((await readTrace(trace)).filter((l) => l.pid === run.pid)).toEqual([]);
      const nudges = await fs.readdir(ownerPaths(a.home).requestsDir);
      const keys = await Promise.all(
        nudges.map(async (n) => {
          const text = await fs.readFile(path.join(ownerPaths(a.home).requestsDir, n), 'utf8');
          return (JSON.parse(text) as { key: string }).key;
        }),
      );
      expect(keys).toContain(path.join(a.roots['proj-p']!, 'MEMORY'));
    } finally {
      end();
      await change;
      await project.close();
      await root.stop();
    }
    // The same write once the change is over runs its exit round, traced: the empty trace above is
    // a round not run, not a trace that was never written.
    const after = await rememberOnce(a, 'proj-p', 'written after the change', 'marker-cli-after', env);
    expect(after.code, after.stderr).toBe(0);
    expect((await readTrace(trace, 'round-start')).map((l) => l.pid)).toContain(after.pid);
  });
});
