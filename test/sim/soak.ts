import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { runSeeds, summarize } from './run-seeds.js';
import type { SimResult } from './simulation.js';

/**
 * `npm run soak -- --seeds N [--from S] [--concurrency C] [--processes P] [--steps K] [--failures FILE] [--no-server-loss]`:
 * the sync simulation over thousands of seeds, every fault on (`--no-server-loss` leaves out the
 * server's data wiped or rolled back, as the soaks before stop 26 ran; `--server-loss` is accepted). A failing seed does not stop the
 * soak: its message (with the replay command) is printed and appended to FILE; the exit code says
 * whether any seed failed. Prints progress every 100 seeds and, at the end, the figures
 * docs/sync-engine.md records: seeds, edits checked, failures, wall and CPU time.
 *
 * One process runs its seeds on one JavaScript thread however high the concurrency (a seed's time
 * is the engine's and the server's own work: docs/performance.md, "Soak cost"), so `--processes P` splits the seeds into P contiguous ranges, each soaked by a
 * child process of its own (the same checks, seed for seed), and adds their figures up.
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
const serverLoss = !process.argv.includes('--no-server-loss');
const from = arg('from', 1);
const concurrency = arg('concurrency', 4);
const steps = arg('steps', 30);
const processes = Math.max(1, Math.min(arg('processes', 1), seeds));
/** A child of `--processes`: its last stdout line is its results, for the parent to add up. */
const child = process.argv.includes('--child');
const RESULTS = 'soak-child-results ';
const started = Date.now();
const cpuStart = process.cpuUsage();
const failed: number[] = [];
const done: SimResult[] = [];
let childCpuMs = 0;
const figures = (): string => {
  const cpu = process.cpuUsage(cpuStart);
  const cpuS = Math.round((cpu.user + cpu.system + childCpuMs * 1000) / 1e6);
  return `${Math.round((Date.now() - started) / 1000)} s wall, ${cpuS} s CPU (${processes > 1 ? `${processes} processes` : 'this process'}), ${Math.round(process.memoryUsage().rss / 1e6)} MB`;
};

const results = processes > 1 ? await runChildren() : await runHere();
if (child) {
  const cpu = process.cpuUsage(cpuStart);
  // Exit once the line is written: stdout to a pipe is asynchronous, and process.exit() right after
  // a large write cuts it off (5,000 seeds' results are ~500 KB; the parent then cannot parse them).
  const line = RESULTS + JSON.stringify({ results, failed, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\n';
  process.stdout.write(line, () => process.exit(0));
} else {
  console.log(
    `soak ${failed.length === 0 ? 'passed' : 'FAILED'}: seeds ${from}–${from + seeds - 1}: ${summarize(results)}; ${failed.length} failed${failed.length ? ` (${failed.sort((a, b) => a - b).join(', ')})` : ''}; ${figures()}`,
  );
  process.exit(failed.length === 0 ? 0 : 1);
}

function runHere(): Promise<SimResult[]> {
  return runSeeds(from, seeds, {
    concurrency,
    steps,
    serverLoss,
    onResult: (r) => {
      done.push(r);
      if (!child && (done.length + failed.length) % 100 === 0)
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
}

/** `processes` children over contiguous ranges of the seeds; their failures print as they come. */
async function runChildren(): Promise<SimResult[]> {
  const all: SimResult[] = [];
  const share = Math.ceil(seeds / processes);
  const ranges = Array.from({ length: processes }, (_, i) => ({
    start: from + i * share,
    count: Math.max(0, Math.min(share, seeds - i * share)),
  })).filter((r) => r.count > 0);
  await Promise.all(
    ranges.map(
      ({ start, count }) =>
        new Promise<void>((resolve, reject) => {
          const args = [
            ...process.execArgv,
            process.argv[1]!,
            '--child',
            ...['--from', String(start), '--seeds', String(count), '--concurrency', String(concurrency)],
            ...['--steps', String(steps)],
            ...(serverLoss ? [] : ['--no-server-loss']),
            ...(failuresFile ? ['--failures', failuresFile] : []),
          ];
          const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
          proc.on('error', reject);
          proc.on('exit', (code) => {
            const line = out.split('\n').find((l) => l.startsWith(RESULTS));
            if (code !== 0 || !line) return reject(new Error(`soak of seeds ${start}… ended with ${code}`));
            const got = JSON.parse(line.slice(RESULTS.length)) as {
              results: SimResult[];
              failed: number[];
              cpuMs: number;
            };
            all.push(...got.results);
            failed.push(...got.failed);
            childCpuMs += got.cpuMs;
            console.log(
              `seeds ${start}–${start + count - 1} done: ${summarize(got.results)}; ${got.failed.length} failed (${figures()})`,
            );
            resolve();
          });
        }),
    ),
  );
  return all.sort((a, b) => a.seed - b.seed);
}
