import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnerLock, readRecord } from '../../electron/sync/owner/owner-lock.js';
import { processStart } from '../../electron/sync/owner/process-identity.js';
import { FakeClock } from '../sync/fake-clock.js';
import { tempDir } from '../support/temp-dir.js';
import { killHard, REPO, spawnNode, type Child } from './children.js';

/**
 * The owner lock between real processes: a child holding it is killed with SIGKILL, a pid is
 * reused by an unrelated process, an owner hangs, several processes race for one stale lock.
 * The standby runs here on an injected clock, so "how long" is counted in its heartbeats.
 */
const holder = path.join(REPO, 'test/sync-owner/hold-lock.ts');
const children: Child[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await c.kill9();
});

function standby(file: string, clock: FakeClock): OwnerLock {
  return new OwnerLock(file, { clock, role: 'app', staleMs: 6_000 });
}

describe('owner lock across processes', { timeout: 120_000 }, () => {
  it('a live owner keeps the lock; after kill -9 a standby takes it over on its next heartbeat', async () => {
    const file = path.join(await tempDir('owner-lock'), 'owner.json');
    const owner = spawnNode(holder, [file, 'hold']);
    children.push(owner);
    expect(await owner.line(/acquired|refused/)).toBe('acquired');
    const clock = new FakeClock(Date.now());
    const lock = standby(file, clock);
    // Two heartbeats of a live owner: the standby keeps off.
    for (let beat = 0; beat < 2; beat++) {
      expect(lock.tryAcquire()).toBe(false);
      clock.t += 2_000;
    }
    expect(lock.owner()?.pid).toBe(owner.pid);
    await owner.kill9();
    // The next heartbeat: the pid no longer runs, so the lock is stale at once.
    expect(lock.tryAcquire()).toBe(true);
    const record = readRecord(file);
    expect(typeof record === 'object' && record.pid).toBe(process.pid);
    lock.release();
    expect(readRecord(file)).toBe('absent');
  });

  it('a lock naming a reused pid (same pid, another start time) is stale; a hung owner goes stale after staleMs', async () => {
    const file = path.join(await tempDir('owner-reuse'), 'owner.json');
    // An unrelated live process whose pid the lock names.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = other.pid!;
      const clock = new FakeClock(Date.now());
      const write = (procStart: string | null) =>
        fs.writeFile(
          file,
          JSON.stringify({
            pid,
            host: os.hostname(),
            procStart,
            token: 'earlier-owner',
            role: 'mcp',
            since: clock.now(),
            heartbeatAt: clock.now(),
          }),
        );
      const real = processStart(pid);
      expect(real).not.toBeNull();
      await write(String(Number(real) + 1));
      const lock = standby(file, clock);
      expect(lock.tryAcquire()).toBe(true);
      lock.release();

      // The same pid with its own start time and a fresh heartbeat is a live owner ...
      await write(real);
      const hung = standby(file, clock);
      let beats = 0;
      while (!hung.tryAcquire()) {
        beats++;
        clock.t += 2_000;
        expect(beats).toBeLessThanOrEqual(4);
      }
      // ... until its heartbeat is older than staleMs (6 s = 3 heartbeats, taken on the 4th).
      expect(beats).toBe(4);
      hung.release();
    } finally {
      await killHard(other);
    }
  });

  it('several processes racing for one stale lock: exactly one takes it', async () => {
    const file = path.join(await tempDir('owner-race'), 'owner.json');
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => dead.once('exit', r));
    await fs.writeFile(
      file,
      JSON.stringify({
        pid: dead.pid,
        host: os.hostname(),
        procStart: null,
        token: 'dead-owner',
        role: 'mcp',
        since: 0,
        heartbeatAt: Date.now(),
      }),
    );
    const racers = Array.from({ length: 5 }, () => spawnNode(holder, [file, 'hold']));
    children.push(...racers);
    const answers = await Promise.all(racers.map((r) => r.line(/acquired|refused/)));
    // A racer that lost to a takeover in progress is refused too: exactly one owner.
    expect(answers.filter((a) => a === 'acquired')).toHaveLength(1);
    const record = readRecord(file);
    const winner = racers[answers.indexOf('acquired')]!;
    expect(typeof record === 'object' && record.pid).toBe(winner.pid);
  });
});
