/**
 * The sync owner's sweep of every project the home knows (electron/sync/owner/known-projects.ts):
 * list the baselines, then one stat per note of each project's notes directory. Measured against
 * reading every note file once (what a sweep that compared contents would cost), in this run, on
 * generated projects; the ratio and the sweep's own time per 10,000 notes are the figures.
 * Run: npx tsx bench/sync/owner-sweep.ts [--projects P] [--notes N]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { changedSince, knownProjects } from '../../electron/sync/owner/known-projects.js';
import type { BaselineLocation } from '../../electron/sync/baseline-location.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const PROJECTS = arg('--projects', 20);
const NOTES = arg('--notes', 500);
const RUNS = 5;

const root = mkdtempSync(path.join(os.tmpdir(), 'owner-sweep-'));
const baselinesDir = path.join(root, 'memory-sync');
for (let p = 0; p < PROJECTS; p++) {
  const projectRoot = path.join(root, `project-${p}`);
  const dir = path.join(projectRoot, 'MEMORY');
  mkdirSync(dir, { recursive: true });
  for (let n = 0; n < NOTES; n++)
    writeFileSync(
      path.join(dir, `note-${n}.md`),
      `{"summary":"note ${n}"}\n---\n${'body text '.repeat(40)}\n`,
    );
  const baseline = path.join(baselinesDir, `${'a'.repeat(63)}${p % 10}-${p}`);
  mkdirSync(baseline, { recursive: true });
  writeFileSync(
    path.join(baseline, 'state.json'),
    JSON.stringify({ base: {}, location: { root: projectRoot, dir } }),
  );
}

async function time(fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((x, y) => x - y)[Math.floor(RUNS / 2)]!;
}

const locations = new Map<string, BaselineLocation | null>();
let changed = 0;
const sweep = await time(async () => {
  changed = 0;
  for (const project of knownProjects(baselinesDir, locations))
    if (await changedSince(project.dir, project.savedAt + 60_000)) changed++;
});
const readAll = await time(() => {
  for (let p = 0; p < PROJECTS; p++) {
    const dir = path.join(root, `project-${p}`, 'MEMORY');
    for (const name of readdirSync(dir)) readFileSync(path.join(dir, name));
  }
});
rmSync(root, { recursive: true, force: true });
const total = PROJECTS * NOTES;
console.log(
  `${PROJECTS} projects × ${NOTES} notes (${total} files), median of ${RUNS}; ${changed} reported changed (expected 0)`,
);
console.log(
  `sweep (stat each note, asynchronous): ${sweep.toFixed(1)} ms = ${((sweep * 10_000) / total).toFixed(1)} ms per 10,000 notes`,
);
console.log(
  `baseline, read every note: ${readAll.toFixed(1)} ms; sweep / baseline = ${(sweep / readAll).toFixed(2)}`,
);
console.log(`machine load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
