import { expect, it } from 'vitest';
import { runSeeds, summarize } from './run-seeds.js';

/**
 * CI runs a modest number of seeds (SIM_SEEDS, default 100, from SIM_FROM); SIM_SEED=<n> replays
 * one; the server's data wiped or rolled back is part of the fault set (SIM_SERVER_LOSS=0 leaves it out). `npm run soak -- --seeds N` runs thousands (docs/sync-engine.md, "Simulation").
 */
const single = process.env.SIM_SEED ? Number(process.env.SIM_SEED) : null;
const count = single !== null ? 1 : Number(process.env.SIM_SEEDS ?? 100);
const from = single ?? Number(process.env.SIM_FROM ?? 1);

it(
  `sync simulation: ${count} seeds from ${from} converge with the server's store, every person's decision holds`,
  { timeout: 600_000 },
  async () => {
    const results = await runSeeds(from, count, { serverLoss: process.env.SIM_SERVER_LOSS !== '0' });
    expect(results).toHaveLength(count);
    console.log(summarize(results));
  },
);
