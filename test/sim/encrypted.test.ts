import { expect, it } from 'vitest';
import { encryptedAccount } from './encrypted-account.js';
import { runSeeds, summarize } from './run-seeds.js';

/**
 * The randomized simulation with end-to-end encryption on (issue 19): the same seeds, faults,
 * crashes and oracle, every round through the sealed client, convergence checked against the
 * store opened with the account's keys. SIM_E2EE_SEEDS (default 6) from SIM_E2EE_FROM (default 1).
 */
const count = Number(process.env.SIM_E2EE_SEEDS ?? 6);
const from = Number(process.env.SIM_E2EE_FROM ?? 1);

it(`encrypted sync simulation: ${count} seeds from ${from}`, { timeout: 600_000 }, async () => {
  const results = await runSeeds(from, count, { account: encryptedAccount });
  expect(results).toHaveLength(count);
  console.log(summarize(results));
});
