import { accessSync, constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote } from '../../shared/note-format.js';
import { createUserMemory } from '../../electron/memory/core.js';
import type { UserMemory } from '../../electron/memory/types.js';
import { SyncEngine } from '../../electron/sync/sync-engine.js';
import type { SyncService } from '../../electron/sync/sync-service.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { startSyncServer, signUserToken, type RunningSyncServer } from '../../server/index.js';
import { FakeClock } from '../sync/fake-clock.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../sync/fault-proxy.js';
import { mulberry32 } from '../support/prng.js';

/**
 * A seeded randomized simulation of the sync engine, in the spirit of Dropbox's Nucleus tests:
 * three devices of one account, random creates / edits / deletes / toggles / syncs / conflict
 * resolutions, against the REAL sync server on loopback behind a fault-injecting proxy (500s,
 * 429s, answers lost after the server committed) and with crashes between the cloud commit and
 * the local write (the process is thrown away and restarted from its files).
 *
 * Faults of the notes folder too: a person breaks a note's frontmatter by hand (a slip in an
 * editor) and fixes it later — the file is held, never read as a deletion.
 *
 * Invariants:
 *   - during the run: a note this computer held is never replaced or deleted by sync without a
 *     backup of that version (checked after every round, crashed or not)
 *   - during the run: sync deletes a note here only if a person deleted that id somewhere (or
 *     chose the cloud's side of a conflict) — a broken file is not a deletion
 *   - after quiescence (faults off, sync on, conflicts resolved, rounds until nothing moves):
 *     every device holds exactly the same notes, equal to the cloud's manifest
 *   - no edit is lost: every edit (a unique line, matched as a whole line) is in a note, a
 *     conflict or a backup
 * Every failure names its seed; `SIM_SEED=<seed>` replays it.
 */

export interface SimOptions {
  steps?: number;
  devices?: number;
  faultRate?: number;
  crashRate?: number;
}

export interface SimResult {
  seed: number;
  rounds: number;
  faults: number;
  crashes: number;
  conflicts: number;
  notes: number;
}

export class SimulationFailure extends Error {
  constructor(
    readonly seed: number,
    message: string,
    readonly log: string[],
  ) {
    super(
      `seed ${seed}: ${message}\n  replay: SIM_SEED=${seed} npx vitest run test/sim\n  last steps:\n    ${log.slice(-25).join('\n    ')}`,
    );
  }
}

class SimulatedCrash extends Error {}

export interface SimServer {
  server: RunningSyncServer;
  secret: string;
  close(): Promise<void>;
}

const SECRET = 'simulation-secret-0123456789-abcdefghij';

/**
 * Real directories, on a RAM file system when there is one: the engine fsyncs every write, and
 * thousands of seeds on a disk would measure the disk's fsync latency rather than the engine.
 */
export function simTmpRoot(): string {
  if (process.env.SIM_TMPDIR) return process.env.SIM_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}

export async function startSimServer(): Promise<SimServer> {
  const dir = await fs.mkdtemp(path.join(simTmpRoot(), 'memdesk-sim-server-'));
  const server = await startSyncServer({
    host: '127.0.0.1',
    port: 0,
    storage: { kind: 'fs', dir },
    jwtSecret: SECRET,
    rateLimit: null,
    log: () => {},
  });
  return {
    server,
    secret: SECRET,
    close: async () => {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

interface SimDevice {
  index: number;
  home: string;
  clock: FakeClock;
  user: UserMemory;
  engine: SyncEngine;
  svc: SyncService;
}

export async function runSimulation(seed: number, sim: SimServer, opts: SimOptions = {}): Promise<SimResult> {
  const rand = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const chance = (p: number): boolean => rand() < p;
  const steps = opts.steps ?? 30;
  const faultRate = opts.faultRate ?? 0.12;
  const crashRate = opts.crashRate ?? 0.08;
  const log: string[] = [];
  const fail = (message: string): never => {
    throw new SimulationFailure(seed, message, log);
  };

  let faultsOn = true;
  let faults = 0;
  const proxy: FaultProxy = await startFaultProxy(sim.server.url, ({ url }) => {
    if (!faultsOn) return 'pass';
    const r = rand();
    let fault: Fault = 'pass';
    if (r < faultRate / 3) fault = 'error500';
    else if (r < (2 * faultRate) / 3) fault = { rate429: 1 };
    else if (r < faultRate && url.includes('commit')) fault = 'drop';
    if (fault !== 'pass') {
      faults++;
      log.push(`  fault ${typeof fault === 'string' ? fault : '429'} on ${url}`);
    }
    return fault;
  });
  const token = await signUserToken({
    secret: sim.secret,
    user: `sim-${seed}-${Math.floor(rand() * 1e9)}`,
    plan: 'paid',
    ttlSeconds: 86400,
  });
  const root = await fs.mkdtemp(path.join(simTmpRoot(), `memdesk-sim-${seed}-`));
  let crashes = 0;
  let rounds = 0;
  let conflictsSeen = 0;

  const open = async (index: number, home: string): Promise<SimDevice> => {
    const clock = new FakeClock();
    const user = await createUserMemory({ home, now: () => clock.now() });
    const engine = new SyncEngine({ home, tokens: new MemoryTokenStore(), clock });
    const svc = engine.attachUser(user)!.service;
    await engine.login(proxy.url, token);
    return { index, home, clock, user, engine, svc };
  };
  const devices: SimDevice[] = [];
  for (let i = 0; i < (opts.devices ?? 3); i++) devices.push(await open(i, path.join(root, `device-${i}`)));
  const enabled = devices.map(() => true);

  /** Every edit is one unique line; all of them must survive somewhere. */
  const edits = new Set<string>();
  let editCounter = 0;
  const newLine = (): string => {
    const line = `edit-${seed}-${++editCounter}`;
    edits.add(line);
    return line;
  };
  /** Ids a person deleted (or resolved towards the cloud's side): sync may delete those. */
  const chosenDeletes = new Set<string>();
  /** Per device, notes whose file a person broke by hand: id → the file as it was. */
  const broken = new Map<number, Map<string, string>>();
  const brokenOn = (i: number): Map<string, string> => {
    let m = broken.get(i);
    if (!m) broken.set(i, (m = new Map()));
    return m;
  };
  const fixFile = async (d: SimDevice, id: string): Promise<void> => {
    const text = brokenOn(d.index).get(id)!;
    brokenOn(d.index).delete(id);
    log.push(`  device ${d.index} fixes ${id}.md by hand`);
    await fs.writeFile(path.join(d.user.store!.dir, `${id}.md`), text);
  };
  const idPool = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

  const backupHashes = async (d: SimDevice): Promise<Set<string>> => {
    const out = new Set<string>();
    for (const entry of await d.user.backups.list(1_000_000)) {
      const { content } = await d.user.backups.get(entry.id);
      const parsed = parseNote(content);
      if (parsed.ok) out.add(contentHash(parsed.note));
    }
    return out;
  };
  const snapshotOf = (d: SimDevice): Map<string, string> =>
    new Map(d.user.store!.list().map((n) => [n.id, n.hash]));

  /** A sync round, crash or not, must never replace or delete a version here without backing it up. */
  const syncRound = async (d: SimDevice, allowCrash: boolean): Promise<SimDevice> => {
    await d.user.store!.load();
    const before = snapshotOf(d);
    const crash = allowCrash && chance(crashRate);
    // Or: the person (an agent, an editor) writes a note while the round is between its commit
    // and its local writes; sync must not overwrite that edit.
    const interleave = allowCrash && !crash && chance(crashRate);
    const editedMeanwhile = new Set<string>();
    d.svc.hooks.afterCommit = crash
      ? () => {
          throw new SimulatedCrash('crash between the cloud commit and the local write');
        }
      : interleave
        ? async () => {
            const notes = d.user.store!.list();
            if (notes.length === 0) return;
            const note = pick(notes);
            const line = newLine();
            editedMeanwhile.add(note.id);
            log.push(`  device ${d.index} edits ${note.id} during the round (${line})`);
            await d.user.store!.write({ ...note, body: `${note.body}${line}\n`, updatedAt: d.clock.now() });
          }
        : undefined;
    const result = (await d.engine.syncNow([d.svc])).get(d.svc)!;
    rounds++;
    let current = d;
    if (crash && d.svc.error?.message.includes('crash between')) {
      crashes++;
      log.push(`  device ${d.index} crashed after its commit; restarting from its files`);
      d.engine.stop();
      await d.user.close();
      current = await open(d.index, d.home);
      devices[d.index] = current;
    } else {
      log.push(`  device ${d.index} round: ${result.outcome}${d.svc.error ? ` (${d.svc.error.code})` : ''}`);
    }
    await current.user.store!.load();
    const after = snapshotOf(current);
    const changed = [...before].filter(([id, hash]) => after.get(id) !== hash && !editedMeanwhile.has(id));
    for (const [id] of changed)
      if (!after.has(id) && !chosenDeletes.has(id))
        fail(`device ${d.index}: sync deleted "${id}", which no person deleted`);
    if (changed.length > 0) {
      const backed = await backupHashes(current);
      for (const [id, hash] of changed) {
        if (!backed.has(hash))
          fail(`device ${d.index}: sync replaced or deleted "${id}" (${hash.slice(0, 8)}) without a backup`);
      }
    }
    conflictsSeen = Math.max(conflictsSeen, (await current.svc.conflicts()).length);
    return current;
  };

  const resolveOne = async (d: SimDevice, all: boolean): Promise<void> => {
    const conflicts = await d.svc.conflicts();
    // A conflict on a file broken by hand waits until the person fixes the file (the store refuses
    // to write a merge over a file it cannot read).
    const resolvable = conflicts.filter((c) => !brokenOn(d.index).has(c.id));
    for (const c of all ? resolvable : resolvable.slice(0, 1)) {
      const choice = pick(['local', 'cloud', 'both', 'merged'] as const);
      log.push(`  device ${d.index} resolves ${c.id} (${c.kind}) → ${choice}`);
      if (choice === 'cloud') chosenDeletes.add(c.id);
      if (choice === 'merged') {
        const detail = await d.svc.conflict(c.id);
        await d.svc.resolve(c.id, { merged: { ...detail.draft, summary: detail.draft.summary || 'merged' } });
      } else {
        await d.svc.resolve(c.id, { keep: choice });
      }
    }
  };

  for (let step = 0; step < steps; step++) {
    const di = Math.floor(rand() * devices.length);
    const d = devices[di]!;
    const store = d.user.store!;
    await store.load();
    const notes = store.list();
    const r = rand();
    d.clock.t += 1000;
    if (r < 0.2 || notes.length === 0) {
      const id = chance(0.5) ? pick(idPool) : `n-${di}-${step}`;
      if (store.get(id) || brokenOn(di).has(id)) continue;
      const line = newLine();
      log.push(`step ${step}: device ${di} creates ${id} (${line})`);
      await store.write({
        id,
        summary: `summary ${id}`,
        tags: chance(0.5) ? ['t1'] : [],
        body: `${line}\nfiller a\nfiller b\nfiller c\n`,
        createdAt: d.clock.now(),
        updatedAt: d.clock.now(),
      });
    } else if (r < 0.5) {
      const note = pick(notes);
      const lines = note.body.split('\n');
      const at = Math.floor(rand() * lines.length);
      const line = newLine();
      lines.splice(at, 0, line);
      const summary = chance(0.1) ? `${note.summary} (edited on ${di})` : note.summary;
      const tags = chance(0.15)
        ? note.tags.includes('t2')
          ? note.tags.filter((t) => t !== 't2')
          : [...note.tags, 't2']
        : note.tags;
      log.push(`step ${step}: device ${di} edits ${note.id} at line ${at} (${line})`);
      await store.write({ ...note, summary, tags, body: lines.join('\n'), updatedAt: d.clock.now() });
    } else if (r < 0.53) {
      // A slip in an editor breaks the frontmatter; the person fixes it a few steps later.
      const fixable = [...brokenOn(di).keys()];
      if (fixable.length > 0 && chance(0.5)) {
        log.push(`step ${step}: device ${di} fixes a broken file`);
        await fixFile(d, pick(fixable));
        continue;
      }
      const note = pick(notes);
      const file = path.join(store.dir, `${note.id}.md`);
      const text = await fs.readFile(file, 'utf8');
      brokenOn(di).set(note.id, text);
      log.push(`step ${step}: device ${di} breaks the frontmatter of ${note.id}.md by hand`);
      await fs.writeFile(file, text.replace('"summary"', '"summary" oops'));
    } else if (r < 0.6) {
      const note = pick(notes);
      chosenDeletes.add(note.id);
      log.push(`step ${step}: device ${di} deletes ${note.id}`);
      await store.delete(note.id, { backupReason: 'simulation: deleted by the person' });
    } else if (r < 0.88) {
      log.push(`step ${step}: device ${di} syncs`);
      await syncRound(d, true);
    } else if (r < 0.94) {
      enabled[di] = !enabled[di];
      log.push(`step ${step}: device ${di} turns sync ${enabled[di] ? 'on' : 'off'}`);
      await d.engine.setEnabled([d.svc], enabled[di]!);
    } else {
      log.push(`step ${step}: device ${di} resolves a conflict`);
      await resolveOne(d, false);
    }
  }

  // Quiescence: no faults, broken files fixed, sync on everywhere, conflicts resolved, rounds until nothing moves.
  faultsOn = false;
  log.push('quiescence');
  for (const d of devices) for (const id of [...brokenOn(d.index).keys()]) await fixFile(d, id);
  for (let i = 0; i < devices.length; i++) {
    if (!enabled[i]) await devices[i]!.engine.setEnabled([devices[i]!.svc], true);
    enabled[i] = true;
  }
  let stable = false;
  for (let pass = 0; pass < 12 && !stable; pass++) {
    for (let i = 0; i < devices.length; i++) {
      const d = await syncRound(devices[i]!, false);
      if (d.svc.pendingDeletes) {
        await d.svc.decidePendingDeletes(pick(['delete', 'keep'] as const));
        await syncRound(d, false);
      }
      await resolveOne(devices[i]!, true);
    }
    stable = true;
    for (let i = 0; i < devices.length; i++) {
      const d = devices[i]!;
      await syncRound(d, false);
      if ((await d.svc.conflicts()).length > 0 || d.svc.pendingDeletes || d.svc.error) stable = false;
    }
    if (stable) {
      // Stable means a further round everywhere changes nothing.
      for (const d of devices) {
        const before = snapshotOf(d);
        await syncRound(d, false);
        if (JSON.stringify([...before]) !== JSON.stringify([...snapshotOf(d)])) stable = false;
      }
    }
  }
  if (!stable)
    fail(
      `no quiescence after 12 passes: ${devices.map((d) => `${d.index}: ${d.svc.error?.message ?? ''} conflicts=${d.svc.lastRound?.conflicts.join(',')}`).join('; ')}`,
    );

  // Convergence: every device holds the same notes, and they are the cloud's.
  const reference = snapshotOf(devices[0]!);
  for (const d of devices.slice(1)) {
    const mine = snapshotOf(d);
    const a = JSON.stringify([...reference].sort());
    const b = JSON.stringify([...mine].sort());
    if (a !== b) fail(`device ${d.index} did not converge with device 0:\n    0: ${a}\n    ${d.index}: ${b}`);
  }
  const state = await devices[0]!.svc.state();
  const cloud = Object.values(state.manifest.entries)
    .filter((e) => e.hash !== null)
    .map((e) => [e.id, e.hash] as [string, string])
    .sort();
  if (JSON.stringify(cloud) !== JSON.stringify([...reference].sort()))
    fail(
      `the devices do not hold what the cloud holds:\n    cloud: ${JSON.stringify(cloud)}\n    device: ${JSON.stringify([...reference].sort())}`,
    );

  // No edit lost: each one is in a note, a conflict (none left) or a backup, on some device.
  const haystack: string[] = [];
  for (const d of devices) {
    for (const n of d.user.store!.list()) haystack.push(n.body);
    for (const entry of await d.user.backups.list(1_000_000))
      haystack.push((await d.user.backups.get(entry.id)).content);
  }
  // Whole lines: "edit-S-1" must not be found inside "edit-S-10".
  const lines = new Set(haystack.join('\n').split('\n'));
  for (const line of edits)
    if (!lines.has(line)) fail(`the edit "${line}" is lost: in no note, conflict or backup`);

  for (const d of devices) {
    d.engine.stop();
    await d.user.close();
  }
  await proxy.close();
  await fs.rm(root, { recursive: true, force: true });
  return { seed, rounds, faults, crashes, conflicts: conflictsSeen, notes: reference.size };
}
