import path from 'node:path';
import type { MemoryCore } from '../memory/types.js';
import { SyncEngine, type SyncEngineOptions } from './sync-engine.js';

/**
 * One sync engine (one coordinator) per process and home: every project a process opens attaches
 * its directories to it, so user notes sync once however many projects are open.
 *
 * The desktop app calls `configureProcessSyncEngine(home, {tokens: safeStorageTokens, autoStart:
 * true, emit})` once at startup; the CLI uses the default (a 0600 token file, no timers).
 */
const engines = new Map<string, SyncEngine>();
const attached = new WeakMap<MemoryCore, { project: boolean; detach: Array<() => void> }>();

export function configureProcessSyncEngine(
  home: string,
  opts: Omit<SyncEngineOptions, 'home'> & { autoStart?: boolean } = {},
): SyncEngine {
  const key = path.resolve(home);
  const existing = engines.get(key);
  if (existing) return existing;
  const { autoStart, ...rest } = opts;
  const engine = new SyncEngine({
    home: key,
    ...rest,
    scheduling: { ...rest.scheduling, autoStart: autoStart ?? false },
  });
  engines.set(key, engine);
  return engine;
}

/** The process's engine for this core's home, with the core's directories attached (once). */
export function syncEngineFor(core: MemoryCore): SyncEngine {
  const engine = configureProcessSyncEngine(core.home);
  let state = attached.get(core);
  if (!state) {
    state = { project: false, detach: [] };
    attached.set(core, state);
    const user = engine.attachUser(core.user);
    if (user) state.detach.push(user.detach);
  }
  // A project registered after the core was opened (project init) joins when it has its id.
  if (!state.project) {
    const project = engine.attachProject(core);
    if (project) {
      state.project = true;
      state.detach.push(project.detach);
    }
  }
  return engine;
}

/**
 * Releases a core's sync attachments: call it when the process closes a core (project switch in
 * the desktop app, the web bridge closing). The shared user-notes service then moves to a store
 * that is still open (or stops when no core uses the directory any more).
 */
export function releaseCoreSync(core: MemoryCore): void {
  const state = attached.get(core);
  if (!state) return;
  attached.delete(core);
  for (const detach of state.detach) detach();
}

/** Stops every engine of this process (tests, shutdown). */
export function stopProcessSyncEngines(): void {
  for (const engine of engines.values()) engine.stop();
  engines.clear();
}

/**
 * Stops this home's engine for good (app quit, web bridge closed): requests in flight are
 * aborted, then running rounds are awaited — they stop at the abort and every write they made is
 * atomic, so nothing is left half-written.
 */
export async function stopProcessSyncEngine(home: string): Promise<void> {
  const key = path.resolve(home);
  const engine = engines.get(key);
  if (!engine) return;
  engines.delete(key);
  engine.coordinator.stop();
  await engine.coordinator.idle();
  engine.stop();
}
