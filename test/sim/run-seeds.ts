import { runSimulation, startSimServer, type SimOptions, type SimResult } from './simulation.js';

/** Runs seeds [from, from+count) a few at a time (each seed is sequential inside). */
export async function runSeeds(
  from: number,
  count: number,
  opts: SimOptions & { concurrency?: number; onResult?: (r: SimResult) => void } = {},
): Promise<SimResult[]> {
  const sim = await startSimServer();
  const results: SimResult[] = [];
  let next = from;
  const end = from + count;
  const worker = async (): Promise<void> => {
    while (next < end) {
      const seed = next++;
      const result = await runSimulation(seed, sim, opts);
      results.push(result);
      opts.onResult?.(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  } finally {
    await sim.close();
  }
  return results.sort((a, b) => a.seed - b.seed);
}

export function summarize(results: SimResult[]): string {
  const sum = (k: keyof SimResult) => results.reduce((s, r) => s + r[k], 0);
  return `${results.length} seeds: ${sum('rounds')} rounds, ${sum('faults')} injected faults, ${sum('crashes')} crashes, ${results.filter((r) => r.conflicts > 0).length} seeds with conflicts`;
}
