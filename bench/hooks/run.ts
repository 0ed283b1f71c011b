/**
 * bench/hooks: what an agent harness pays per hook and per MCP start at ~10,000 notes, measured as
 * the harness meets it, against baselines from the same run:
 *   - the CLI bundle (scripts/build-cli.ts) built into a folder with a space in its name, then
 *     `memdesk setup claude-code` writes the hook commands into a temp HOME's ~/.claude/settings.json;
 *   - each written command run cold the way Claude Code runs it: `sh -c '<command>'`, the hook's JSON
 *     (test/hooks/fixtures/claude-code.json) on stdin, from another directory — SessionStart (the
 *     index), UserPromptSubmit (recall; a new session each run, so nothing counts as attached yet)
 *     and Stop (extraction off: the default);
 *   - baselines: `node -e 0`, `cat` of one note (a bare file read), `grep -ril` over both folders;
 *   - the same hooks answered warm by a running `memdesk mcp` of the home and project, beside the
 *     cold UserPromptSubmit, `node -e 0` and `grep -ril`, and the server's own CPU per answer;
 *     `memdesk list` and `memdesk search` warm and cold (their answers checked byte-identical first);
 *   - `memdesk mcp`: ms to the initialize answer with the prompt snapshot valid (the normal start)
 *     and without it (the notes changed since any agent last loaded them), to tools/list, and to the
 *     first recall.
 * Wall (from here) and CPU (user + sys of the child, /usr/bin/time), medians of --runs.
 *
 *   npx tsx bench/hooks/run.ts [--notes 5000] [--runs 3] [--warm-only]     (notes per scope;
 *   --warm-only: the warm table alone)
 */
import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { serializeNote } from '../../shared/note-format.js';
import { arg, generate, median, rng, runsFooter } from '../load/corpus.js';
import { startWarmMcp } from '../cli-cold/warm-server.js';
import { timedProcess } from '../load/processes.js';

const NOTES = arg('notes', 5000);
const RUNS = arg('runs', 3);
const WARM_ONLY = process.argv.includes('--warm-only');
const PROMPT = 'how do we roll back a canary deploy of the storefront?';
/** Notes with words of their own, as real notes have (the generated ones share one small vocabulary). */
const DISTINCT = [
  ['Storefront canary deploys roll back with the flagger abort command', 'canary, rollback, storefront'],
  ['Canary analysis for the storefront waits 10 minutes per step', 'canary, storefront'],
  ['Rollback of the payments service needs the on-call approval', 'rollback, payments'],
];
const here = path.dirname(fileURLToPath(import.meta.url));

interface Run {
  wall: number;
  cpu: number;
  stdout: string;
}

/** One process under /usr/bin/time: `argv`, `input` on stdin, in `cwd` with `env`; exit 0 or 1. */
async function once(argv: string[], input: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const run = await timedProcess(argv, { input, cwd, env });
  if (run.code !== 0 && run.code !== 1) throw new Error(`${argv.join(' ')}: exit ${run.code} ${run.stderr}`);
  return run;
}

interface Mcp {
  initialize: number;
  /** CPU (user + sys) the server had used when its initialize answer arrived, from /proc (10 ms ticks). */
  initializeCpu: number;
  tools: number;
  recall: number;
  indexInInstructions: boolean;
}

/** One `memdesk mcp` session as a client drives it: initialize, initialized, tools/list, a recall. */
function mcpSession(argv: string[], env: Record<string, string>, cwd: string): Promise<Mcp> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
    const send = (msg: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    const out: Partial<Mcp> = {};
    let buf = '';
    child.on('error', reject);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl)) as {
          id?: number;
          error?: unknown;
          result?: { instructions?: string };
        };
        buf = buf.slice(nl + 1);
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        const t = performance.now() - t0;
        if (msg.id === 1) {
          out.initialize = t;
          out.initializeCpu = cpuSoFar(child.pid!);
          out.indexInInstructions = (msg.result?.instructions ?? '').includes('Memory index (newest first)');
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          out.tools = t;
          send({ id: 3, method: 'tools/call', params: { name: 'recall', arguments: { message: PROMPT } } });
        } else if (msg.id === 3) {
          out.recall = t;
          child.stdin.end();
          resolve(out as Mcp);
        }
      }
    });
    send({
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

/** user + sys CPU ms a running process has used so far (Linux /proc; clock ticks of 10 ms). */
function cpuSoFar(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15 of stat)
}

const ms = (x: number) => `${Math.round(x)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function main(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-hooks-'));
  try {
    const cli = await buildCliBundle(path.join(base, 'Memory Desk', 'cli'));
    const userHome = path.join(base, 'home');
    const mdHome = path.join(userHome, '.oharness');
    const project = path.join(base, 'project');
    const projectDir = path.join(project, 'MEMORY');
    const userDir = path.join(mdHome, 'memory', 'user');
    const random = rng(7);
    await generate(projectDir, 'p', NOTES, random);
    await generate(userDir, 'u', NOTES, random);
    for (const [i, [summary, tags]] of DISTINCT.entries()) {
      const note = {
        id: `distinct-${i}`,
        summary: summary!,
        tags: tags!.split(', '),
        createdAt: 1_780_000_000_000,
        updatedAt: 1_780_000_000_000,
        body: `${summary}.\n`,
      };
      await fs.writeFile(path.join(projectDir, `distinct-${i}.md`), serializeNote(note));
    }
    // Notes written a while ago, as in real use (a directory changed within 2 s is not snapshotted).
    const past = new Date(Date.now() - 3_600_000);
    for (const dir of [projectDir, userDir]) await fs.utimes(dir, past, past);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: userHome, OHARNESS_HOME: mdHome };

    await once([process.execPath, cli, 'setup', 'claude-code'], '', project, env);
    const settings = JSON.parse(
      await fs.readFile(path.join(userHome, '.claude', 'settings.json'), 'utf8'),
    ) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    const command = (event: string) => settings.hooks[event]![0]!.hooks[0]!.command;
    const fixtures = JSON.parse(
      await fs.readFile(path.join(here, '../../test/hooks/fixtures/claude-code.json'), 'utf8'),
    ) as Record<string, Record<string, unknown>>;
    let session = 0;
    const input = (event: string, fresh = false) =>
      JSON.stringify({
        ...fixtures[event],
        cwd: project,
        transcript_path: path.join(base, 'transcript.jsonl'),
        session_id: fresh ? `bench-${++session}` : 'bench-0',
        ...(event === 'UserPromptSubmit' ? { prompt: PROMPT } : {}),
      });
    // Claude Code runs hooks from the session's directory; a harness such as Cursor from elsewhere.
    const hook = (event: string, fresh = false) =>
      once(['/bin/sh', '-c', command(event)], input(event, fresh), os.tmpdir(), env);
    await hook('SessionStart'); // the first run after setup writes the index cache and the prompt snapshot
    const oneNote = path.join(projectDir, (await fs.readdir(projectDir))[0]!);

    const cases: Record<string, () => Promise<Run>> = {
      'node -e 0': () => once([process.execPath, '-e', '0'], '', base, env),
      'cat one note': () => once(['cat', oneNote], '', base, env),
      'grep -ril': () => once(['grep', '-ril', 'checklist', projectDir, userDir], '', base, env),
      'hook SessionStart (index)': () => hook('SessionStart'),
      'hook UserPromptSubmit (recall)': () => hook('UserPromptSubmit', true),
      'hook Stop (extraction off)': () => hook('Stop'),
    };
    const runs: Record<string, Run[]> = {};
    for (let r = 0; r < (WARM_ONLY ? 1 : RUNS); r++)
      for (const [name, c] of Object.entries(cases)) (runs[name] ??= []).push(await c());
    const med = (name: string) => ({
      wall: median(runs[name]!.map((x) => x.wall)),
      cpu: median(runs[name]!.map((x) => x.cpu)),
    });
    const node = med('node -e 0');
    const cat = med('cat one note');
    const grep = med('grep -ril');
    console.log(
      `\n${2 * NOTES} notes (${NOTES} project + ${NOTES} user), hooks as written by setup, run through sh`,
    );
    console.log(
      '| | wall | CPU | vs `node -e 0` (wall / CPU) | vs `cat` one note (wall / CPU) | vs `grep -ril` (wall / CPU) |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const name of Object.keys(cases)) {
      const t = med(name);
      console.log(
        `| ${name} | ${ms(t.wall)} | ${ms(t.cpu)} | ${ratio(t.wall, node.wall)} / ${ratio(t.cpu, node.cpu)} | ${ratio(t.wall, cat.wall)} / ${ratio(t.cpu, Math.max(cat.cpu, 1))} | ${ratio(t.wall, grep.wall)} / ${ratio(t.cpu, Math.max(grep.cpu, 1))} |`,
      );
    }
    const recalled = runs['hook UserPromptSubmit (recall)']!.map(
      (r) => (r.stdout.match(/<note id=/g) ?? []).length,
    );
    console.log(
      `UserPromptSubmit answers attached ${recalled.join(', ')} notes (0 = nothing matched, or the 2.5 s budget ran out: see hooks.log)`,
    );
    const log = await fs.readFile(path.join(mdHome, 'logs', 'hooks.log'), 'utf8').catch(() => '');
    console.log(
      `hooks.log: ${log.trim().split('\n').filter(Boolean).length} lines${log ? `; last: ${log.trim().split('\n').pop()}` : ''}`,
    );

    // ---- warm: a `memdesk mcp` of this home and project is running (docs/agents.md "Warm answers") ----
    const warmEnv = { ...env, XDG_RUNTIME_DIR: path.join(base, 'run') };
    await fs.mkdir(warmEnv.XDG_RUNTIME_DIR, { recursive: true });
    const server = await startWarmMcp([process.execPath, cli, 'mcp'], warmEnv, project);
    const warmHook = (event: string, fresh = false) =>
      once(['/bin/sh', '-c', command(event)], input(event, fresh), os.tmpdir(), warmEnv);
    const memdesk = (args: string[], e: Record<string, string>) =>
      once([process.execPath, cli, ...args], '', project, e);
    const SEARCH = ['search', 'canary rollback storefront'];
    const warmCases: Record<string, () => Promise<Run>> = {
      'node -e 0': cases['node -e 0']!,
      'grep -ril': cases['grep -ril']!,
      'hook SessionStart, warm': () => warmHook('SessionStart'),
      'hook UserPromptSubmit, warm': () => warmHook('UserPromptSubmit', true),
      'hook UserPromptSubmit, cold': () => hook('UserPromptSubmit', true),
      'list, warm': () => memdesk(['list'], warmEnv),
      'list, cold': () => memdesk(['list'], env),
      'search, warm': () => memdesk(SEARCH, warmEnv),
      'search, cold': () => memdesk(SEARCH, env),
    };
    const warmRuns: Record<string, Run[]> = {};
    let serverCpu = 0;
    const serverCpuOf: Record<string, number> = {};
    try {
      // A warm answer that differed from the cold one would be wrong: compared before timing.
      for (const args of [['list'], ['--json', 'list'], SEARCH, ['--json', ...SEARCH, '--limit', '5']]) {
        const [w, c] = [await memdesk(args, warmEnv), await memdesk(args, env)];
        if (w.stdout === c.stdout) continue;
        // Printed, not thrown: the timings still come, and the first difference says where to look.
        const [wl, cl] = [w.stdout.split('\n'), c.stdout.split('\n')];
        const at = wl.findIndex((line, i) => line !== cl[i]);
        console.log(`\nwarm ≠ cold for memdesk ${args.join(' ')} at line ${at + 1}:`);
        console.log(`  warm: ${wl[at]?.slice(0, 200)}\n  cold: ${cl[at]?.slice(0, 200)}`);
      }
      console.log('\nanswers of list, search (text and --json) compared warm vs cold (differences above)');
      for (let r = 0; r < RUNS; r++)
        for (const [name, c] of Object.entries(warmCases)) {
          const before = name.includes('warm') ? server.cpuMs() : 0;
          (warmRuns[name] ??= []).push(await c());
          if (name.startsWith('hook') && name.includes('warm')) serverCpu += server.cpuMs() - before;
          if (name.includes('warm')) serverCpuOf[name] = (serverCpuOf[name] ?? 0) + server.cpuMs() - before;
        }
    } finally {
      await server.stop();
    }
    const wmed = (name: string) => ({
      wall: median(warmRuns[name]!.map((x) => x.wall)),
      cpu: median(warmRuns[name]!.map((x) => x.cpu)),
    });
    const [wnode, wgrep] = [wmed('node -e 0'), wmed('grep -ril')];
    console.log(`\n${2 * NOTES} notes, memdesk mcp of this home and project running, hooks through sh`);
    console.log('| | wall | CPU | vs `node -e 0` (wall / CPU) | vs `grep -ril` (wall / CPU) |');
    console.log('|---|---|---|---|---|');
    for (const name of Object.keys(warmCases)) {
      const t = wmed(name);
      console.log(
        `| ${name} | ${ms(t.wall)} | ${ms(t.cpu)} | ${ratio(t.wall, wnode.wall)} / ${ratio(t.cpu, wnode.cpu)} | ${ratio(t.wall, wgrep.wall)} / ${ratio(t.cpu, Math.max(wgrep.cpu, 1))} |`,
      );
    }
    const attached = (name: string) =>
      warmRuns[name]!.map((r) =>
        [...r.stdout.matchAll(/<note id=\\"([^"\\]+)/g)].map((m) => m[1]).join(' '),
      ).join(' | ');
    console.log(`UserPromptSubmit attached, warm: ${attached('hook UserPromptSubmit, warm')}`);
    console.log(`UserPromptSubmit attached, cold: ${attached('hook UserPromptSubmit, cold')}`);
    console.log(
      `the server's CPU per warm hook answer: ${ms(serverCpu / (2 * RUNS))} (from /proc, 10 ms ticks)`,
    );
    for (const name of ['list, warm', 'search, warm'])
      console.log(`the server's CPU per ${name} answer: ${ms((serverCpuOf[name] ?? 0) / RUNS)}`);
    if (WARM_ONLY) return;

    const mcpArgv = [process.execPath, cli, 'mcp'];
    const snapshotFiles = async () =>
      (await fs.readdir(path.join(mdHome, 'memory-cache'))).filter((f) => f.startsWith('prompt-'));
    const warm: Mcp[] = [];
    const cold: Mcp[] = [];
    for (let r = 0; r < RUNS; r++) {
      warm.push(await mcpSession(mcpArgv, env, project));
      for (const f of await snapshotFiles()) await fs.rm(path.join(mdHome, 'memory-cache', f));
      cold.push(await mcpSession(mcpArgv, env, project));
      await hook('SessionStart'); // builds the prompt again: the snapshot is back for the next warm run
    }
    const show = (label: string, xs: Mcp[]) =>
      console.log(
        `| ${label} | ${ms(median(xs.map((x) => x.initialize)))} (${ratio(median(xs.map((x) => x.initialize)), node.wall)}) | ${ms(median(xs.map((x) => x.initializeCpu)))} (${ratio(median(xs.map((x) => x.initializeCpu)), node.cpu)}) | ${ms(median(xs.map((x) => x.tools)))} | ${ms(median(xs.map((x) => x.recall)))} (${ratio(median(xs.map((x) => x.recall)), node.wall)}) | ${xs.map((x) => (x.indexInInstructions ? 'yes' : 'no')).join(', ')} |`,
      );
    console.log(
      `\nmemdesk mcp at ${2 * NOTES} notes (ratios vs node -e 0 = ${ms(node.wall)} wall, ${ms(node.cpu)} CPU)`,
    );
    console.log(
      '| start | initialize answered (wall) | CPU used by then | tools/list (wall) | first recall (wall) | index in instructions |',
    );
    console.log('|---|---|---|---|---|---|');
    show('prompt snapshot valid', warm);
    show('no valid snapshot', cold);
    console.log(`\n${runsFooter(RUNS)}`);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

await main();
