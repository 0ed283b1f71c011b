/**
 * bench/hooks/mcp-start: what `memdesk mcp` costs until a client can use it — the CPU and wall time
 * to the `initialize` answer and to the `tools/list` answer, with the prompt snapshot valid (the
 * normal start) — against Node itself, many runs interleaved, because a single run says little
 * (2 cores shared, a 10 ms CPU tick).
 *
 * CPU is read from /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU, every thread of the
 * process, summed) at the moment its answer arrives, so it is not rounded to the 10 ms tick that
 * `/usr/bin/time` and /proc/<pid>/stat report in. The baseline is measured the same way: `node -e`
 * of a script that prints one line and waits, read when its line arrives (Node's own start to its
 * first output, `node -e 0` without the exit).
 *
 *   npx tsx bench/hooks/mcp-start.ts [--notes 500] [--runs 30] [--cli path/to/memdesk.js]
 *
 * --notes per scope; --cli runs an existing bundle (e.g. one built from an older commit, for an
 * A/B in the same conditions) instead of bundling this tree's CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { arg, generate, rng, runsFooter } from '../load/corpus.js';

const NOTES = arg('notes', 500);
const RUNS = arg('runs', 30);
const cliArg = process.argv.indexOf('--cli');
const GIVEN_CLI = cliArg >= 0 ? path.resolve(process.argv[cliArg + 1]!) : null;

/** ms on a CPU so far, every live thread of `pid` summed (schedstat's first field is in ns). */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile: its time is lost to both sides alike (Node's pool threads live on)
    }
  }
  return ns / 1e6;
}

interface Point {
  wall: number;
  cpu: number;
}

function ended(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve() : child.once('close', () => resolve()),
  );
}

/** Node's own start: a script that prints one line, measured when the line arrives, then stopped. */
async function nodeBaseline(cwd: string, env: Record<string, string>): Promise<Point> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', "process.stdout.write('up\\n'); setInterval(() => {}, 1e6)"], {
    cwd,
    env, // the session's: an inherited NODE_EXTRA_CA_CERTS alone costs Node ~60 ms CPU at start
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const point = await new Promise<Point>((resolve) =>
    child.stdout.once('data', () => resolve({ wall: performance.now() - t0, cpu: cpuMs(child.pid!) })),
  );
  child.kill();
  await ended(child);
  return point;
}

interface Session {
  initialize: Point;
  tools: Point;
  toolCount: number;
  indexInInstructions: boolean;
}

/** One `memdesk mcp` session as a client opens it: initialize, initialized, tools/list; then stdin closed. */
async function mcpSession(cli: string, env: Record<string, string>, cwd: string): Promise<Session> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'mcp'], { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const send = (msg: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
  const out: Partial<Session> = {};
  const session = await new Promise<Session>((resolve, reject) => {
    let buf = '';
    child.on('error', reject);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const at = { wall: performance.now() - t0, cpu: cpuMs(child.pid!) };
        const msg = JSON.parse(buf.slice(0, nl)) as {
          id?: number;
          error?: unknown;
          result?: { instructions?: string; tools?: unknown[] };
        };
        buf = buf.slice(nl + 1);
        if (msg.error) return reject(new Error(JSON.stringify(msg.error)));
        if (msg.id === 1) {
          out.initialize = at;
          out.indexInInstructions = (msg.result?.instructions ?? '').includes('Memory index (newest first)');
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          out.tools = at;
          out.toolCount = msg.result?.tools?.length ?? 0;
          resolve(out as Session);
        }
      }
    });
    const clientInfo = { name: 'bench', version: '1' };
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
    });
  });
  child.stdin.end();
  // Its after-work (loading the notes) never overlaps the next run. A build from before the
  // close-while-loading fix (mcp/server.ts) never exits on its own: stopped after 5 s then.
  const stop = setTimeout(() => child.kill(), 5_000);
  await ended(child);
  clearTimeout(stop);
  return session;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const fmt = (xs: number[]) => `${Math.round(quantile(xs, 0.5))} / ${Math.round(quantile(xs, 0.9))} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-mcp-start-'));
  try {
    const cli = GIVEN_CLI ?? (await buildCliBundle(path.join(base, 'Memory Desk', 'cli')));
    const userHome = path.join(base, 'home');
    const mdHome = path.join(userHome, '.oharness');
    const project = path.join(base, 'project');
    const random = rng(7);
    const dirs = [path.join(project, 'MEMORY'), path.join(mdHome, 'memory', 'user')];
    await generate(dirs[0]!, 'p', NOTES, random);
    await generate(dirs[1]!, 'u', NOTES, random);
    // Notes written a while ago, as in real use (a directory changed within 2 s is not snapshotted).
    const past = new Date(Date.now() - 3_600_000);
    for (const dir of dirs) await fs.utimes(dir, past, past);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: userHome, OHARNESS_HOME: mdHome };
    await mcpSession(cli, env, project); // the first start builds the prompt and saves the snapshot
    const loadBefore = load();

    const node: Point[] = [];
    const sessions: Session[] = [];
    for (let r = 0; r < RUNS; r++) {
      // Alternating which goes first, so neither always runs right after the other's exit.
      if (r % 2 === 0) node.push(await nodeBaseline(project, env));
      sessions.push(await mcpSession(cli, env, project));
      if (r % 2 === 1) node.push(await nodeBaseline(project, env));
    }
    const pick = (f: (s: Session) => number) => sessions.map(f);
    const ratios = (f: (s: Session) => number) => sessions.map((s, i) => f(s) / node[i]!.cpu);
    const r2 = (xs: number[]) => `${quantile(xs, 0.5).toFixed(2)}× / ${quantile(xs, 0.9).toFixed(2)}×`;
    console.log(
      `\n\`memdesk mcp\` at ${2 * NOTES} notes, prompt snapshot valid, ${RUNS} runs interleaved with the baseline (median / p90)`,
    );
    console.log('| | wall | CPU | CPU vs node (same run) |');
    console.log('|---|---|---|---|');
    console.log(
      `| node start to first output | ${fmt(node.map((p) => p.wall))} | ${fmt(node.map((p) => p.cpu))} | 1× |`,
    );
    console.log(
      `| initialize answered | ${fmt(pick((s) => s.initialize.wall))} | ${fmt(pick((s) => s.initialize.cpu))} | ${r2(ratios((s) => s.initialize.cpu))} |`,
    );
    console.log(
      `| tools/list answered | ${fmt(pick((s) => s.tools.wall))} | ${fmt(pick((s) => s.tools.cpu))} | ${r2(ratios((s) => s.tools.cpu))} |`,
    );
    const runsWithIndex = sessions.filter((s) => s.indexInInstructions).length;
    console.log(
      `index in instructions: ${runsWithIndex}/${RUNS} runs; tools listed: ${[...new Set(pick((s) => s.toolCount))].join(', ')}`,
    );
    console.log(`load average before the runs: ${loadBefore}`);
    console.log(runsFooter(RUNS));
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

await main();
