import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RoundPoint } from '../../electron/sync/round/types.js';
import { simFsStore } from './cluster.js';
import { Simulation } from './simulation.js';

/**
 * Issue 11: a process killed at EVERY crash point of a round — not an exception after the commit
 * with its locks released, but a round frozen at that await (its lock file and a cut-short temp
 * file left behind, as kill -9 leaves them) — and a new process on the same files. The round that
 * is killed does everything a round can: a clean merge (two backups, a push, a local write), a
 * push of an edit and of a new note, a pull of an edit and of a delete. After each kill, the
 * devices converge with the server's store and the ledger's exact check holds.
 */
let store: Awaited<ReturnType<typeof simFsStore>>;
beforeAll(async () => {
  store = await simFsStore();
});
afterAll(async () => {
  await store?.remove();
});

const ALL_POINTS: RoundPoint[] = [
  'gate:identity',
  'gate:bind',
  'snapshot:page',
  'plan:objects',
  'commit:backup',
  'commit:journal',
  'commit:request',
  'commit:answered',
  'apply:objects',
  'apply:write',
  'apply:delete',
  'save:state',
  'save:conflicts',
  'save:journal',
  'save:garbage',
  'round:end',
];

/** Two devices in sync, then changes on both sides; returns the simulation ready for device 0's round. */
async function scenario(seed: number): Promise<Simulation> {
  const sim = new Simulation(seed, store.storage, { devices: 2, faultRate: 0, crashRate: 0 });
  await sim.start();
  const [d0, d1] = sim.devices as [
    NonNullable<(typeof sim.devices)[0]>,
    NonNullable<(typeof sim.devices)[1]>,
  ];
  for (const id of ['a', 'b', 'c', 'd']) await sim.create(d0, id, 'setup');
  await sim.syncRound(0, false);
  await sim.syncRound(1, false);
  const note = (dev: typeof d0, id: string) => dev.user.store!.get(id)!;
  const append = async (dev: typeof d0, id: string, where: 'start' | 'end') => {
    const n = note(dev, id);
    const line = sim.ledger.marker('line');
    const body = where === 'start' ? `${line}\n${n.body}` : `${n.body}${line}\n`;
    await sim.write(dev, n, { ...n, body, updatedAt: dev.clock.now() }, `${where} of ${id} on ${dev.index}`);
  };
  await d1.user.store!.load();
  await append(d1, 'a', 'end');
  await append(d1, 'd', 'end');
  await sim.deleteNote(d1, note(d1, 'b'), 'delete b on 1');
  await sim.syncRound(1, false);
  await append(d0, 'a', 'start'); // merges cleanly with device 1's line at the end
  await append(d0, 'c', 'end');
  await sim.create(d0, 'e', 'create e on 0');
  return sim;
}

it(
  'a process killed at every crash point of a round: the next process converges, nothing lost or revived',
  { timeout: 300_000 },
  async () => {
    const killedAt: RoundPoint[] = [];
    const locksLeft = new Set<string>();
    for (let k = 0; ; k++) {
      expect(k, 'the round should end within 40 crash points').toBeLessThan(40);
      const sim = await scenario(5000 + k);
      try {
        await sim.syncRound(0, false, k);
        if (sim.kills.length === 0) break; // the round ended before crash point k: every point was tried
        for (const kill of sim.kills) {
          killedAt.push(kill.point);
          for (const lock of kill.locks) locksLeft.add(lock);
        }
        await sim.quiesce();
        await sim.check();
      } finally {
        await sim.close();
      }
    }
    expect(killedAt).toEqual([
      'gate:identity',
      'gate:bind',
      'snapshot:page',
      'plan:objects',
      'commit:backup', // this computer's version of "a", before the merge
      'commit:backup', // the cloud's
      'commit:journal',
      'commit:request',
      'commit:answered', // the cloud holds the merge and the pushes of "c" and "e"; nothing here knows yet
      'apply:objects', // the pulls' copies and their journal entries, before any write here
      'apply:write', // the merge of "a"
      'apply:delete', // "b", deleted on device 1
      'apply:write', // "d", edited on device 1
      'save:state',
      'save:conflicts',
      'save:journal',
      'save:garbage',
      'round:end',
    ]);
    expect(new Set(killedAt)).toEqual(new Set(ALL_POINTS));
    // Each kill left the round's lock on the baseline directory, naming a process that is gone.
    expect([...locksLeft]).toEqual([expect.stringMatching(/^memory-sync\/[0-9a-f]+\/\.memdesk\.lock$/)]);
  },
);

it(
  'killed after the commit, then killed again at every crash point of the recovering round',
  { timeout: 300_000 },
  async () => {
    const recoveryKills: RoundPoint[] = [];
    for (let j = 0; ; j++) {
      expect(j, 'the recovering round should end within 40 crash points').toBeLessThan(40);
      const sim = await scenario(6000 + j);
      try {
        await sim.syncRound(0, false, 'commit:answered'); // the journal names pushes the cloud holds
        expect(sim.kills.map((k) => k.point)).toEqual(['commit:answered']);
        await sim.syncRound(0, false, j);
        if (sim.kills.length === 1) break;
        recoveryKills.push(sim.kills[1]!.point);
        await sim.quiesce();
        await sim.check();
      } finally {
        await sim.close();
      }
    }
    // The recovering round writes the merge the journal names (apply:write) before it plans.
    expect(recoveryKills.slice(0, 4)).toEqual(['gate:identity', 'gate:bind', 'snapshot:page', 'apply:write']);
    expect(recoveryKills).toContain('round:end');
  },
);

it('a note pushed, its answer lost, deleted here, then a round killed after its journal: the delete still reaches the cloud', async () => {
  // Found by the soak (seed 336): the second round's journal replaced the first round's entry for
  // the note, and with it the only record that the cloud held the first push — the next round
  // then took the cloud's copy for a note from elsewhere and wrote it back here.
  const sim = new Simulation(7000, store.storage, { devices: 2, faultRate: 0, crashRate: 0 });
  await sim.start();
  try {
    const [d0] = sim.devices;
    await sim.create(d0!, 'kept', 'create kept');
    await sim.create(d0!, 'gone', 'create gone');
    await sim.syncRound(0, false, 'commit:answered'); // the cloud holds both notes
    const d = sim.devices[0]!;
    await d.user.store!.load();
    await sim.deleteNote(d, d.user.store!.get('gone')!, 'delete gone');
    await sim.syncRound(0, false, 'commit:request'); // the delete's journal is written
    expect(sim.kills.map((k) => k.point)).toEqual(['commit:answered', 'commit:request']);
    await sim.quiesce();
    await sim.check();
    expect(sim.devices.map((dev) => dev.user.store!.get('gone'))).toEqual([undefined, undefined]);
  } finally {
    await sim.close();
  }
});
