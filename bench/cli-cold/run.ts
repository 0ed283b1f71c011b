/**
 * bench/cli-cold: what a per-message hook or an agent pays for one `memdesk` call, cold (a new
 * process every time), against baselines measured in the same run:
 *   - `node -e 0` (the floor of any Node CLI) and `grep -ril WORD` over the same note folders
 *     (the floor of reading every note), and `node` listing both folders and stat-ing every note
 *     file (the floor of a cold answer that checks each file for edits, as the CLI's cold path does);
 *   - the CLI bundle (scripts/build-cli.ts, built into a temp dir first) at an empty home and at
 *     ~10,000 notes (4,990 project + 5,000 user; varied vocabulary and sizes, bench/load/corpus.ts
 *     generateVaried; `--uniform` for bench/load's 38-word corpus instead): recall, list,
 *     remember (project scope) and a refused remember (the full user scope), with the index cache
 *     warm (the normal case) and once cold (first run after the cache is removed);
 *   - `memdesk mcp`: time to the `initialize` answer and to the first `recall` answer, at a
 *     project's first start (no prompt snapshot yet) and at later starts (the snapshot valid);
 *   - with a `memdesk mcp` of the same home and project running: `recall` answered warm (over its
 *     socket) against the same command cold, `grep -ril` and `node -e 0`, after checking the warm and
 *     cold answers are byte-identical; and the server's own CPU per warm answer.
 * Wall and CPU time (user + system, from /usr/bin/time) per run; medians of --runs (default 3).
 * Every command runs without NODE_EXTRA_CA_CERTS (as bench/hooks does): Node reads that bundle at
 * start, which adds ~70–90 ms CPU to every process here and to none on most machines.
 *
 *   npx tsx bench/cli-cold/run.ts [--notes 5000] [--runs 3] [--uniform]
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { arg, generate, generateVaried, median, rng, runsFooter } from '../load/corpus.js';
import { startWarmMcp } from './warm-server.js';
import { timedProcess } from '../load/processes.js';
import { RACY_MS as SNAPSHOT_RACY_MS } from '../../electron/agents/recall/prompt-snapshot.js';

const NOTES = arg('notes', 5000);
const RUNS = arg('runs', 3);
const QUESTION = 'how do we deploy the release after the merge review?';
const BENCH_ENV: NodeJS.ProcessEnv = { ...process.env };
delete BENCH_ENV.NODE_EXTRA_CA_CERTS;
/** readdir + one stat per `.md` file of each folder given: what a per-file freshness check cannot go below. */
const STAT_EVERY_FILE = `const fs = require('node:fs');
for (const dir of process.argv.slice(1))
  for (const e of fs.readdirSync(dir, { withFileTypes: true }))
    if (e.isFile() && e.name.endsWith('.md')) fs.statSync(dir + '/' + e.name, { throwIfNoEntry: false });`;

interface Timing {
  wall: number;
  cpu: number;
}

/** Runs a command once under /usr/bin/time; wall from here, CPU (user + sys) of the child. */
const timed = (cmd: string[], env: NodeJS.ProcessEnv = BENCH_ENV) => timedProcess(cmd, { env });

/** Medians of RUNS runs of each command, interleaved so load changes hit every command alike. */
async function measure(
  cmds: Record<
    string,
    {
      cmd: string[];
      env?: NodeJS.ProcessEnv;
      before?: () => Promise<void>;
      ok?: (code: number | null) => boolean;
    }
  >,
): Promise<Record<string, Timing>> {
  const runs: Record<string, Timing[]> = {};
  for (let r = 0; r < RUNS; r++) {
    for (const [name, c] of Object.entries(cmds)) {
      await c.before?.();
      const t = await timed(c.cmd, c.env);
      if (!(c.ok ?? ((code) => code === 0))(t.code)) throw new Error(`${name}: exit ${t.code}`);
      (runs[name] ??= []).push(t);
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, ts]) => [
      name,
      { wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) },
    ]),
  );
}

/** `memdesk mcp`: ms until the initialize answer and until the first recall answer (one session). */
function mcpSession(bin: string, g: string[]): Promise<{ initialize: number; recall: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...g, 'mcp'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: BENCH_ENV,
    });
    const send = (msg: unknown) => child.stdin.write(JSON.stringify(msg) + '\n');
    let buf = '';
    let initialize = 0;
    child.on('error', reject);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl)) as { id?: number; error?: unknown };
        buf = buf.slice(nl + 1);
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        if (msg.id === 1) {
          initialize = performance.now() - t0;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'recall', arguments: { message: QUESTION } },
          });
        } else if (msg.id === 2) {
          resolve({ initialize, recall: performance.now() - t0 });
          child.stdin.end();
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}

async function mcpMedians(
  bin: string,
  g: string[],
  before?: () => Promise<void>,
): Promise<{ initialize: number; recall: number }> {
  const runs: Array<{ initialize: number; recall: number }> = [];
  for (let r = 0; r < RUNS; r++) {
    await before?.();
    runs.push(await mcpSession(bin, g));
  }
  return { initialize: median(runs.map((x) => x.initialize)), recall: median(runs.map((x) => x.recall)) };
}

const ms = (x: number): string => `${Math.round(x)} ms`;

function table(title: string, base: Timing, baseName: string, rows: Record<string, Timing>): void {
  console.log(`\n${title} (baseline ${baseName}: wall ${ms(base.wall)}, cpu ${ms(base.cpu)})`);
  console.log('| command | wall | cpu | wall ratio | cpu ratio |');
  console.log('|---|---|---|---|---|');
  for (const [name, t] of Object.entries(rows)) {
    console.log(
      `| ${name} | ${ms(t.wall)} | ${ms(t.cpu)} | ${(t.wall / base.wall).toFixed(2)}× | ${(t.cpu / base.cpu).toFixed(2)}× |`,
    );
  }
}

async function main(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-cli-cold-'));
  try {
    const bin = await buildCliBundle(path.join(base, 'cli'));
    const node = process.execPath;

    // ---- an empty home ----
    const emptyHome = path.join(base, 'empty-home');
    const emptyProject = path.join(base, 'empty-project');
    await fs.mkdir(emptyProject, { recursive: true });
    const ge = ['--home', emptyHome, '--project', emptyProject];
    const empty = await measure({
      'node -e 0': { cmd: [node, '-e', '0'] },
      recall: { cmd: [node, bin, ...ge, 'recall', QUESTION] },
      list: { cmd: [node, bin, ...ge, 'list'] },
      remember: {
        cmd: [node, bin, ...ge, 'remember', '--summary', 'Deploy after review', '--body', 'Checklist first.'],
        // Each run writes a new note into an otherwise empty project: forget the earlier ones.
        before: () => fs.rm(path.join(emptyProject, 'MEMORY'), { recursive: true, force: true }),
      },
    });
    const { 'node -e 0': nodeEmpty, ...emptyRows } = empty;
    table('Empty home', nodeEmpty!, '`node -e 0`', emptyRows);

    // ---- ~10,000 notes: 4,990 project notes (room for the remember runs), 5,000 user notes (full) ----
    const home = path.join(base, 'home');
    const root = path.join(base, 'project');
    const projectDir = path.join(root, 'MEMORY');
    const userDir = path.join(home, 'memory', 'user');
    const random = rng(42);
    const make = process.argv.includes('--uniform') ? generate : generateVaried;
    await make(projectDir, 'p', NOTES - 10, random);
    await make(userDir, 'u', NOTES, random);
    const g = ['--home', home, '--project', root];
    const cacheDir = path.join(home, 'memory-cache');
    // The first run after the cache is removed: reads, parses and analyses every note, writes the cache.
    const coldIndex = await measure({
      'recall (no index cache yet)': {
        cmd: [node, bin, ...g, 'recall', QUESTION],
        before: () => fs.rm(cacheDir, { recursive: true, force: true }),
      },
    });
    await timed([node, bin, ...g, 'recall', QUESTION]); // leaves a complete cache behind
    const full = await measure({
      'node -e 0': { cmd: [node, '-e', '0'] },
      'grep -ril': { cmd: ['grep', '-ril', 'checklist', projectDir, userDir], ok: (c) => c === 0 || c === 1 },
      'node: readdir + stat every note': { cmd: [node, '-e', STAT_EVERY_FILE, projectDir, userDir] },
      recall: { cmd: [node, bin, ...g, 'recall', QUESTION] },
      list: { cmd: [node, bin, ...g, 'list'] },
      'list --json': { cmd: [node, bin, ...g, '--json', 'list'] },
      search: { cmd: [node, bin, ...g, 'search', 'merge review'] },
      remember: {
        cmd: [node, bin, ...g, 'remember', '--summary', 'Release note', '--body', 'Deploy after review.'],
      },
      'remember, refused (full user scope)': {
        cmd: [node, bin, ...g, 'remember', '--scope', 'user', '--summary', 'One more', '--body', 'x'],
        ok: (c) => c === 1,
      },
    });
    const { 'node -e 0': nodeFull, 'grep -ril': grep, ...fullRows } = full;
    const allRows = { ...fullRows, ...coldIndex };
    const total = NOTES - 10 + NOTES;
    table(`${total} notes, against grep`, grep!, '`grep -ril` over both folders', allRows);
    table(`${total} notes, against node`, nodeFull!, '`node -e 0`', allRows);

    // `memdesk mcp` answers initialize from the last prompt it built (prompt-snapshot.ts) when no
    // notes directory changed since: the first start of a project has none, every later start does.
    // A snapshot is not saved within RACY_MS of a change, so the later starts begin after that.
    const removeSnapshots = async () => {
      for (const f of await fs.readdir(cacheDir))
        if (f.startsWith('prompt-')) await fs.rm(path.join(cacheDir, f), { force: true });
    };
    const firstStart = await mcpMedians(bin, g, removeSnapshots);
    await new Promise((r) => setTimeout(r, SNAPSHOT_RACY_MS + 100));
    await mcpSession(bin, g); // saves the snapshot
    const laterStart = await mcpMedians(bin, g);
    for (const [what, mcp] of [
      ['first start (no prompt snapshot)', firstStart],
      ['later starts (prompt snapshot valid)', laterStart],
    ] as const)
      console.log(
        `${what.startsWith('first') ? '\n' : ''}memdesk mcp at ${total} notes, ${what}: initialize answered ${ms(mcp.initialize)} (${(mcp.initialize / nodeFull!.wall).toFixed(2)}× node -e 0), first recall answered ${ms(mcp.recall)} (${(mcp.recall / nodeFull!.wall).toFixed(2)}×)`,
      );

    // ---- warm: a `memdesk mcp` of this home and project is running (docs/agents.md "Warm answers") ----
    const warmEnv = { ...BENCH_ENV, XDG_RUNTIME_DIR: path.join(base, 'run') };
    const coldEnv = { ...BENCH_ENV, XDG_RUNTIME_DIR: path.join(base, 'run-none') };
    await fs.mkdir(warmEnv.XDG_RUNTIME_DIR, { recursive: true });
    const server = await startWarmMcp([node, bin, ...g, 'mcp'], warmEnv, root);
    try {
      // Byte-identical answers first: a warm answer that differed from the cold one would be wrong.
      for (const q of [QUESTION, 'merge review checklist', 'rollback the deploy', 'no such words zebra']) {
        for (const args of [
          ['recall', q],
          ['--json', 'recall', q],
        ]) {
          const w = await timed([node, bin, ...g, ...args], warmEnv);
          const c = await timed([node, bin, ...g, ...args], coldEnv);
          if (w.stdout !== c.stdout || w.code !== c.code)
            throw new Error(`warm ≠ cold for ${args.join(' ')}`);
        }
      }
      const serverBefore = server.cpuMs();
      const warm = await measure({
        'node -e 0': { cmd: [node, '-e', '0'] },
        'grep -ril': {
          cmd: ['grep', '-ril', 'checklist', projectDir, userDir],
          ok: (c) => c === 0 || c === 1,
        },
        'recall, warm': { cmd: [node, bin, ...g, 'recall', QUESTION], env: warmEnv },
        'recall, cold': { cmd: [node, bin, ...g, 'recall', QUESTION], env: coldEnv },
      });
      const serverPerAnswer = (server.cpuMs() - serverBefore) / RUNS;
      const { 'node -e 0': nodeWarm, 'grep -ril': grepWarm, ...warmRows } = warm;
      console.log('\nanswers of 8 recalls (4 queries, text and --json): warm and cold byte-identical');
      table(
        `${total} notes, memdesk mcp running, against grep`,
        grepWarm!,
        '`grep -ril` over both folders',
        warmRows,
      );
      table(`${total} notes, memdesk mcp running, against node`, nodeWarm!, '`node -e 0`', warmRows);
      console.log(`the server's CPU per warm answer: ${ms(serverPerAnswer)} (from /proc, 10 ms ticks)`);
    } finally {
      await server.stop();
    }
    console.log(`\n${runsFooter(RUNS)}`);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

await main();
