import { simFsStore, type ClusterStorage } from './cluster.js';
import { runSimulation, SimulationFailure, type SimOptions, type SimResult } from './simulation.js';

/**
 * Runs seeds [from, from+count) a few at a time (each seed is sequential inside). Every seed runs
 * its own server instances over one shared store, as an account of its own.
 */
export async function runSeeds(
  from: number,
  count: number,
  opts: SimOptions & {
    concurrency?: number;
    onResult?: (r: SimResult) => void;
    /** Called for each failing seed, and the run goes on (default: the first failure ends the run). */
    onFailure?: (failure: SimulationFailure) => void;
    /** The store every seed's instances share (default: a fresh directory). */
    storage?: ClusterStorage;
  } = {},
): Promise<SimResult[]> {
  const store = opts.storage ? { storage: opts.storage, remove: async () => {} } : await simFsStore();
  const results: SimResult[] = [];
  let next = from;
  const end = from + count;
  const worker = async (): Promise<void> => {
    while (next < end) {
      const seed = next++;
      let result: SimResult;
      try {
        result = await runSimulation(seed, store.storage, opts);
      } catch (err) {
        if (!(err instanceof SimulationFailure) || !opts.onFailure) throw err;
        opts.onFailure(err);
        continue;
      }
      results.push(result);
      opts.onResult?.(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  } finally {
    await store.remove();
  }
  return results.sort((a, b) => a.seed - b.seed);
}

export function summarize(results: SimResult[]): string {
  const sum = (k: keyof SimResult) => results.reduce((s, r) => s + r[k], 0);
  return `${results.length} seeds: ${sum('markers')} edits checked, ${sum('rounds')} rounds, ${sum('faults')} server faults, ${sum('crashes')} kills at crash points, ${sum('fileFaults')} files broken by hand, ${sum('keyEdits')} foreign-key edits, ${sum('serverLosses')} server data losses, ${results.filter((r) => r.conflicts > 0).length} seeds with conflicts`;
}
