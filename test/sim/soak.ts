import { appendFileSync } from 'node:fs';
import { runSeeds, summarize } from './run-seeds.js';
import type { SimResult } from './simulation.js';

/**
 * `npm run soak -- --seeds N [--from S] [--concurrency C] [--steps K] [--failures FILE] [--server-loss]`: the sync
 * simulation over thousands of seeds, every fault on. A failing seed does not stop the soak: its
 * message (with the replay command) is printed and appended to FILE; the exit code says whether
 * any seed failed. Prints progress every 100 seeds and, at the end, the figures docs/sync-engine.md
 * records: seeds, edits checked, failures, wall and CPU time.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
}
const failuresFile = (() => {
  const i = process.argv.indexOf('--failures');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

const seeds = arg('seeds', 1000);
const serverLoss = process.argv.includes('--server-loss');
const from = arg('from', 1);
const concurrency = arg('concurrency', 4);
const steps = arg('steps', 30);
const started = Date.now();
const cpuStart = process.cpuUsage();
const failed: number[] = [];
const done: SimResult[] = [];
const figures = (): string => {
  const cpu = process.cpuUsage(cpuStart);
  return `${Math.round((Date.now() - started) / 1000)} s wall, ${Math.round((cpu.user + cpu.system) / 1e6)} s CPU (this process), ${Math.round(process.memoryUsage().rss / 1e6)} MB`;
};
const results = await runSeeds(from, seeds, {
  concurrency,
  steps,
  serverLoss,
  onResult: (r) => {
    done.push(r);
    if ((done.length + failed.length) % 100 === 0)
      console.log(
        `${done.length + failed.length}/${seeds} seeds, ${failed.length} failed: ${summarize(done)} (${figures()})`,
      );
  },
  onFailure: (failure) => {
    failed.push(failure.seed);
    console.error(failure.message);
    if (failuresFile) appendFileSync(failuresFile, `${failure.message}\n\n`);
  },
});
console.log(
  `soak ${failed.length === 0 ? 'passed' : 'FAILED'}: seeds ${from}–${from + seeds - 1}: ${summarize(results)}; ${failed.length} failed${failed.length ? ` (${failed.sort((a, b) => a - b).join(', ')})` : ''}; ${figures()}`,
);
process.exit(failed.length === 0 ? 0 : 1);
