import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createUserMemory } from '../../electron/memory/core.js';
import { LOCK_FILE_NAME } from '../../electron/memory/dir-lock.js';
import type { UserMemory } from '../../electron/memory/types.js';
import { SyncEngine } from '../../electron/sync/sync-engine.js';
import type { SyncService } from '../../electron/sync/sync-service.js';
import { MemoryTokenStore, type TokenStore } from '../../electron/sync/token-store.js';
import type { FakeClock } from '../sync/fake-clock.js';

/**
 * One simulated computer: a home directory, and the process (a UserMemory and a SyncEngine) that
 * runs on it. A process can be killed at a crash point of a round (the round's promise never
 * settles, as a killed process never resumes) and a new one started on the same files.
 */
export interface SimDevice {
  index: number;
  /** The home directory on disk. */
  home: string;
  /** How many processes ran on this home before this one. */
  life: number;
  clock: FakeClock;
  user: UserMemory;
  engine: SyncEngine;
  svc: SyncService;
}

/** A pid no process can have (above Linux's largest pid_max): what a killed owner's pid is to a lock. */
export const DEAD_PID = 4_194_305;

/**
 * Starts a process on `home`. Each life opens the home through a path of its own (a symbolic link
 * to it): the in-process lock queue is keyed by path, and the killed process's queue — blocked for
 * ever behind its frozen round — must not block the new process, as it could not across processes.
 * The lock files on disk are the same files.
 */
export async function startDevice(
  index: number,
  home: string,
  life: number,
  clock: FakeClock,
  login: { url: string; token: string },
  /** Where the process finds the end-to-end encryption key (test/sim/encrypted-account.ts). */
  keys?: TokenStore,
): Promise<SimDevice> {
  let opened = home;
  if (life > 0) {
    opened = `${home}.life-${life}`;
    await fs.symlink(path.basename(home), opened);
  }
  // env {}: no OHARNESS_MEMORY_* of the machine running the simulation.
  const user = await createUserMemory({ home: opened, now: () => clock.now(), env: {} });
  const engine = new SyncEngine({
    home: opened,
    tokens: new MemoryTokenStore(),
    clock,
    ...(keys ? { keys } : {}),
  });
  const svc = engine.attachUser(user)!.service;
  await engine.login(login.url, login.token);
  return { index, home, life, clock, user, engine, svc };
}

/** Stops a process that finished its work (no round in flight). */
export async function stopDevice(d: SimDevice): Promise<void> {
  d.engine.stop();
  await d.user.close();
}

/**
 * What a kill -9 leaves beyond the frozen round: lock files naming a process that no longer runs,
 * and a temp file of a write cut short. Nothing of the dead process runs again.
 */
export async function leaveKilledProcessFiles(d: SimDevice): Promise<string[]> {
  const locks: string[] = [];
  for (const file of await filesNamed(d.home, LOCK_FILE_NAME)) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    let owner: { pid?: number };
    try {
      owner = JSON.parse(text) as { pid?: number };
    } catch {
      continue;
    }
    if (owner.pid !== process.pid) continue;
    await fs.writeFile(file, JSON.stringify({ ...owner, pid: DEAD_PID }));
    locks.push(path.relative(d.home, file));
  }
  const notes = d.user.store!.dir;
  const someNote = (await fs.readdir(notes)).find((n) => n.endsWith('.md'));
  if (someNote) await fs.writeFile(path.join(notes, `.${someNote}.${DEAD_PID}.cut0.tmp`), '{"id":"cut short');
  return locks;
}

async function filesNamed(dir: string, name: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === name) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}
