/**
 * bench/merge: our three-way body merge against `git merge-file -p --diff3` on the same generated
 * inputs, in the same run. Run: npx tsx bench/merge/merge-vs-git.ts [--reps N]
 *
 * Ours runs in-process (per-merge time). git runs as a child process per merge, its input files
 * written beforehand; to be fair we also subtract the cost of spawning git at all, measured with
 * `git merge-file` on three empty files, and print both that net ratio and the raw one.
 *
 * On a shared, loaded machine wall-clock times swing with other people's work, so the same
 * comparison is also made in CPU time: ours from process.cpuUsage() over all reps, git's from the
 * `times` builtin of a bash loop running the same merges (children's user + system time), minus the
 * same loop over empty files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mergeText } from '../../electron/sync/merge/index.js';
import { editDoc, joinDoc, randomDoc } from '../../test/sync-merge/random-docs.js';
import { mulberry32 } from '../../test/support/prng.js';

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
  const rand = mulberry32(seed);
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

/** CPU ms per merge of ours (user + system over `REPS` merges). */
function cpuOurs(c: Case): number {
  const before = process.cpuUsage();
  for (let i = 0; i < REPS; i++) mergeText(c.base, c.local, c.cloud);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / REPS;
}

/** CPU ms per `git merge-file` run (children's user + system, from bash's `times`), over `REPS` runs. */
function cpuGit(files: [string, string, string]): number {
  const script = `for ((i=0;i<${REPS};i++)); do git merge-file -p --diff3 "$1" "$2" "$3" >/dev/null; done; times`;
  const run = spawnSync('bash', ['-c', script, 'bench', ...files], { encoding: 'utf8' });
  const children = run.stdout.trim().split('\n')[1] ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (secs.length !== 2) throw new Error(`could not read bash times output: ${run.stdout}${run.stderr}`);
  return ((secs[0]! + secs[1]!) * 1000) / REPS;
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
function timeGit(
  dir: string,
  c: Case,
  empty: [string, string, string],
): { raw: number; spawn: number; cpu: number; cpuSpawn: number } {
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
  return { raw: stat(raw), spawn: stat(spawn), cpu: cpuGit(files), cpuSpawn: cpuGit(empty) };
}

/** ours / git's net time; "n/a" when git's own work is lost in the noise of spawning it. */
function netRatio(ours: number, net: number): string {
  return net > 0.05 ? (ours / net).toFixed(2) : 'n/a';
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
  const cpuRows: string[] = [];
  console.log('wall clock:');
  console.log(
    'size     conflicts  ours ms  git ms (raw)  spawn ms  git ms (net)  ours/git net  ours/git raw',
  );
  for (const kib of SIZES_KIB) {
    let ours = 0;
    let git = 0;
    let spawn = 0;
    let conflicts = 0;
    let oursCpu = 0;
    let gitCpu = 0;
    let spawnCpu = 0;
    for (let k = 0; k < CASES_PER_SIZE; k++) {
      const c = makeCase(kib * 1000 + k, kib);
      if (!mergeText(c.base, c.local, c.cloud).clean) conflicts++;
      ours += timeOurs(c);
      oursCpu += cpuOurs(c);
      const g = timeGit(dir, c, empty);
      git += g.raw;
      spawn += g.spawn;
      gitCpu += g.cpu;
      spawnCpu += g.cpuSpawn;
    }
    ours /= CASES_PER_SIZE;
    git /= CASES_PER_SIZE;
    spawn /= CASES_PER_SIZE;
    oursCpu /= CASES_PER_SIZE;
    gitCpu /= CASES_PER_SIZE;
    spawnCpu /= CASES_PER_SIZE;
    cpuRows.push(
      `${String(kib).padStart(3)} KiB  ${oursCpu.toFixed(3).padStart(7)}  ${gitCpu.toFixed(3).padStart(11)}  ${spawnCpu
        .toFixed(3)
        .padStart(
          8,
        )}  ${(gitCpu - spawnCpu).toFixed(3).padStart(11)}  ${netRatio(oursCpu, gitCpu - spawnCpu).padStart(11)}  ${(
        oursCpu / gitCpu
      )
        .toFixed(3)
        .padStart(11)}`,
    );
    const net = git - spawn;
    console.log(
      `${String(kib).padStart(3)} KiB  ${`${conflicts}/${CASES_PER_SIZE}`.padStart(9)}  ${ours.toFixed(3).padStart(7)}  ${git.toFixed(3).padStart(12)}  ${spawn.toFixed(3).padStart(8)}  ${net.toFixed(3).padStart(12)}  ${netRatio(ours, net).padStart(12)}  ${(ours / git).toFixed(3).padStart(12)}`,
    );
  }
  console.log('CPU time (user + system):');
  console.log('size     ours ms  git ms (raw)  spawn ms  git ms (net)  ours/git net  ours/git raw');
  for (const row of cpuRows) console.log(row);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
