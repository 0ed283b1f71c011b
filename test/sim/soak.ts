import { runSeeds, summarize } from './run-seeds.js';
import { SimulationFailure } from './simulation.js';

/**
 * `npm run soak -- --seeds N [--from S] [--concurrency C] [--steps K]`: the sync simulation over
 * thousands of seeds. Stops at the first failure and prints its seed and how to replay it.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
}

const seeds = arg('seeds', 1000);
const from = arg('from', 1);
const concurrency = arg('concurrency', 4);
const steps = arg('steps', 30);
const started = Date.now();
let done = 0;
try {
  const results = await runSeeds(from, seeds, {
    concurrency,
    steps,
    onResult: () => {
      done++;
      if (done % 100 === 0)
        console.log(`${done}/${seeds} seeds passed (${Math.round((Date.now() - started) / 1000)} s)`);
    },
  });
  console.log(`soak passed: ${summarize(results)} in ${Math.round((Date.now() - started) / 1000)} s`);
} catch (err) {
  if (err instanceof SimulationFailure) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
