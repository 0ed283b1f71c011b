/**
 * bench/merge: our three-way body merge against `git merge-file -p --diff3` on the same generated
 * inputs, in the same run. Run: npx tsx bench/merge/merge-vs-git.ts [--reps N]
 *
 * Ours runs in-process (per-merge time). git runs as a child process per merge, its input files
 * written beforehand; to be fair we also subtract the cost of spawning git at all, measured with
 * `git merge-file` on three empty files, and print both that net ratio and the raw one.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mergeText } from '../../electron/sync/merge/index.js';
import { editDoc, joinDoc, prng, randomDoc } from '../../test/sync-merge/random-docs.js';

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 30;
const SIZES_KIB = [1, 4, 16, 64, 128];
const CASES_PER_SIZE = 4;

interface Case {
  base: string;
  local: string;
  cloud: string;
}

/** A body of about `kib` KiB and two copies with edits spread through it (some touch: conflicts). */
function makeCase(seed: number, kib: number): Case {
  const rand = prng(seed);
  const lines: string[] = [];
  let bytes = 0;
  while (bytes < kib * 1024) {
    const [line] = randomDoc(rand, 1);
    lines.push(line!);
    bytes += Buffer.byteLength(line!) + 1;
  }
  const edits = 2 + Math.ceil(kib / 2);
  return {
    base: joinDoc(lines, true),
    local: joinDoc(editDoc(rand, lines, edits), true),
    cloud: joinDoc(editDoc(rand, lines, edits), true),
  };
}

/** The statistic every figure uses: `--stat min` (best case, least disturbed by other load) or median. */
const statArg = process.argv.indexOf('--stat');
const STAT = statArg > 0 ? process.argv[statArg + 1] : 'median';
function stat(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return STAT === 'min' ? s[0]! : s[Math.floor(s.length / 2)]!;
}

function gitMerge(files: [string, string, string]): number {
  const t0 = performance.now();
  const run = spawnSync('git', ['merge-file', '-p', '--diff3', ...files], { maxBuffer: 64 * 1024 * 1024 });
  const t1 = performance.now();
  if (run.status === null || run.status < 0 || run.status > 127)
    throw new Error(`git merge-file failed: ${String(run.stderr)}`);
  return t1 - t0;
}

function timeOurs(c: Case): number {
  for (let i = 0; i < 3; i++) mergeText(c.base, c.local, c.cloud); // warm up the JIT
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    mergeText(c.base, c.local, c.cloud);
    samples.push(performance.now() - t0);
  }
  return stat(samples);
}

/**
 * git's median time for this case, and the median spawn overhead measured interleaved with it
 * (one empty-file merge before each real one), so load changes on a shared machine hit both alike.
 */
function timeGit(dir: string, c: Case, empty: [string, string, string]): { raw: number; spawn: number } {
  const files: [string, string, string] = [path.join(dir, 'l'), path.join(dir, 'b'), path.join(dir, 'c')];
  fs.writeFileSync(files[0], c.local);
  fs.writeFileSync(files[1], c.base);
  fs.writeFileSync(files[2], c.cloud);
  gitMerge(files);
  const raw: number[] = [];
  const spawn: number[] = [];
  for (let i = 0; i < REPS; i++) {
    spawn.push(gitMerge(empty));
    raw.push(gitMerge(files));
  }
  return { raw: stat(raw), spawn: stat(spawn) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdesk-bench-merge-'));
try {
  const empty: [string, string, string] = [path.join(dir, 'e1'), path.join(dir, 'e2'), path.join(dir, 'e3')];
  for (const f of empty) fs.writeFileSync(f, '');
  gitMerge(empty);
  const gitVersion = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(
    `${gitVersion}; node ${process.version}; ${REPS} reps per case, ${CASES_PER_SIZE} cases per size, statistic: ${STAT}`,
  );
  console.log(
    'size     conflicts  ours ms  git ms (raw)  spawn ms  git ms (net)  ours/git net  ours/git raw',
  );
  for (const kib of SIZES_KIB) {
    let ours = 0;
    let git = 0;
    let spawn = 0;
    let conflicts = 0;
    for (let k = 0; k < CASES_PER_SIZE; k++) {
      const c = makeCase(kib * 1000 + k, kib);
      if (!mergeText(c.base, c.local, c.cloud).clean) conflicts++;
      ours += timeOurs(c);
      const g = timeGit(dir, c, empty);
      git += g.raw;
      spawn += g.spawn;
    }
    ours /= CASES_PER_SIZE;
    git /= CASES_PER_SIZE;
    spawn /= CASES_PER_SIZE;
    const net = Math.max(git - spawn, 0.001);
    console.log(
      `${String(kib).padStart(3)} KiB  ${`${conflicts}/${CASES_PER_SIZE}`.padStart(9)}  ${ours.toFixed(3).padStart(7)}  ${git.toFixed(3).padStart(12)}  ${spawn.toFixed(3).padStart(8)}  ${net.toFixed(3).padStart(12)}  ${(ours / net).toFixed(2).padStart(12)}  ${(ours / git).toFixed(3).padStart(12)}`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
