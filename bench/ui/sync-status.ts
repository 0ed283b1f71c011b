/**
 * bench/ui: `sync.status` over HTTP (what the page asks after each round and each note change) at
 * 10,000 synced notes (5,000 per scope, a baseline saved for each as a finished round leaves it)
 * against the 17-note demo sample, in one run, on the real web bridge.
 *
 *   npx tsx bench/ui/sync-status.ts [--calls 20]
 *
 * The first call reads and validates each scope's state.json (what every call did before the
 * status kept it: electron/sync/status-snapshot.ts); the following calls answer from what is kept
 * until a round writes the file again. Wall time and this process's CPU (bridge and core run here).
 */
import { promises as fs } from 'node:fs';
import { parseArgs } from 'node:util';
import { generatedSeed, machine, median, sampleSeed, startBench, type Seed } from './setup.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20' } } });
const CALLS = Number(values.calls);

async function dataset(label: string, seed: Seed) {
  const b = await startBench(seed);
  const ctx = b.bridge.context;
  const engine = await ctx.sync!.engine();
  // Every note synced: the manifest and the base name each one, as after a round.
  for (const svc of engine.servicesOf(ctx.core)) {
    const entries: Record<string, unknown> = {};
    const base: Record<string, string> = {};
    svc.store.list().forEach((n, i) => {
      entries[n.id] = { id: n.id, hash: n.hash, rev: `r${i}`, seq: i + 1, size: n.body.length };
      base[n.id] = n.hash;
    });
    await fs.mkdir(svc.baselines.dir, { recursive: true });
    await svc.baselines.saveState({
      format: 1,
      scopeKey: svc.baselines.scopeKey,
      manifest: { version: 1, entries },
      base,
      lastSyncedAt: Date.now(),
      lastPull: null,
      boundTo: null,
    } as Parameters<typeof svc.baselines.saveState>[0]);
  }
  const first = await b.invoke('sync.status', {});
  const later = [];
  for (let i = 0; i < CALLS; i++) later.push(await b.invoke('sync.status', {}));
  await b.close();
  const out = {
    label,
    notes: b.notes,
    firstMs: first.ms,
    firstCpu: first.cpuMs,
    ms: median(later.map((r) => r.ms)),
    cpu: median(later.map((r) => r.cpuMs)),
  };
  console.log(
    `${label} (${out.notes} notes): first call ${out.firstMs.toFixed(1)} ms (CPU ${out.firstCpu.toFixed(1)} ms); next ${CALLS} calls median ${out.ms.toFixed(1)} ms (CPU ${out.cpu.toFixed(1)} ms)`,
  );
  return out;
}

const base = await dataset('baseline: demo sample', sampleSeed);
const big = await dataset('10,000 notes', generatedSeed(5000));
console.log(
  `sync.status 10,000 / sample: ${(big.ms / base.ms).toFixed(2)}× (median, kept), first call (reads state.json) ${(big.firstMs / base.firstMs).toFixed(2)}×; kept / first at 10,000: ${(big.cpu / big.firstCpu).toFixed(2)}× CPU — ${machine()}`,
);
