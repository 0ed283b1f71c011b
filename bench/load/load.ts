/**
 * bench/load: 2 scopes × 5000 generated notes. Full load by the memory core (createMemoryCore:
 * both stores, parse, validate, hash, links, limits) against a bare read of the same files
 * (readdir + readFile of every .md) in the same run. Prints medians and the ratio (target ≤ 1.5×).
 *
 *   npx tsx bench/load/load.ts [--notes 5000] [--rounds 7]
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createMemoryCore } from '../../electron/memory/core.js';
import { arg, bareRead, generateHome, median } from './corpus.js';

const NOTES = arg('notes', 5000);
const ROUNDS = arg('rounds', 7);

async function main(): Promise<void> {
  const { base, home, root, projectDir, userDir } = await generateHome('load', NOTES);

  // Warm the page cache and the JIT for both sides before timing.
  await bareRead([projectDir, userDir]);
  await (await createMemoryCore({ home, projectRoot: root, env: {} })).close();

  // Wall time, and this process's CPU time (user + system): on a machine shared with other work
  // the wall-clock ratio is noisy, the CPU ratio much less so. Both are printed.
  const bare: number[] = [];
  const full: number[] = [];
  const bareCpu: number[] = [];
  const fullCpu: number[] = [];
  const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
  let loaded = 0;
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate the order so neither side always runs on a colder cache.
    const order = r % 2 === 0 ? ['bare', 'full'] : ['full', 'bare'];
    for (const which of order) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      if (which === 'bare') {
        await bareRead([projectDir, userDir]);
        bare.push(performance.now() - t0);
        bareCpu.push(cpuMs(process.cpuUsage(c0)));
      } else {
        const core = await createMemoryCore({ home, projectRoot: root, env: {} });
        full.push(performance.now() - t0);
        fullCpu.push(cpuMs(process.cpuUsage(c0)));
        loaded = core.store('project')!.list().length + core.store('user')!.list().length;
        if (core.warnings().length) throw new Error(`unexpected warnings: ${core.warnings()[0]!.message}`);
        await core.close();
      }
    }
  }
  await fs.rm(base, { recursive: true, force: true });
  const b = median(bare);
  const f = median(full);
  const min = (xs: number[]): number => Math.min(...xs);
  console.log(
    `notes loaded: ${loaded} (2 scopes × ${NOTES}), rounds: ${ROUNDS}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log(
    `bare read (readdir + readFile): wall median ${b.toFixed(1)} ms, best ${min(bare).toFixed(1)} ms; cpu median ${median(bareCpu).toFixed(1)} ms`,
  );
  console.log(
    `full load (createMemoryCore):   wall median ${f.toFixed(1)} ms, best ${min(full).toFixed(1)} ms; cpu median ${median(fullCpu).toFixed(1)} ms`,
  );
  console.log(
    `ratio full/bare: wall median ${(f / b).toFixed(2)}×, wall best ${(min(full) / min(bare)).toFixed(2)}×, cpu ${(median(fullCpu) / median(bareCpu)).toFixed(2)}×  (target ≤ 1.5×)`,
  );
}

await main();
