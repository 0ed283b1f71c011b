import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { serializeNote } from '../../shared/note-format.js';
import {
  WARM_PROTOCOL_VERSION,
  WarmAdvertisementSchema,
  type WarmAdvertisement,
} from '../../shared/warm-protocol.js';
import { runCli } from '../../electron/transports/cli/run.js';
import { envKey } from '../../electron/transports/warm/place.js';
import { tempDir, until } from '../memory/helpers.js';

/**
 * The warm-answer tests' fixture (docs/agents.md "Warm answers"): real `memdesk` processes from the
 * CLI bundle, a real `memdesk mcp` as the long-running process, real temp homes. Whether a run was
 * answered warm is read from the modules it loaded: a cold run loads the CLI's loader (load-cli.js),
 * a warm one never does. `useCliBundle()` in a test file builds the bundle once for its tests.
 */
const moduleLog = new URL('./module-log/register.mjs', import.meta.url).href;

let bin = '';
export function useCliBundle(): void {
  let bundleDir = '';
  beforeAll(async () => {
    bundleDir = await tempDir('warm-bundle');
    bin = await buildCliBundle(path.join(bundleDir, 'cli'));
  }, 120_000);
  afterAll(async () => {
    await fs.rm(bundleDir, { recursive: true, force: true });
  });
}

export interface Place {
  base: string;
  home: string;
  root: string;
  /** XDG_RUNTIME_DIR of this place's processes: where the warm server advertises. */
  runtime: string;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  warm: boolean;
}

export const WORDS = (
  'deploy release checklist staging rollback database migration postgres index vacuum cache redis ' +
  'invalidation queue worker retry backoff timeout logging tracing metrics alert pager oncall ' +
  'review lint format typescript eslint vitest coverage flaky docker image registry kubernetes ' +
  'helm secret rotation certificate renewal backup restore snapshot budget invoice billing'
).split(' ');

/** The same deterministic notes in any place: summaries, tags and bodies from WORDS. */
export async function writeCorpus(p: Place, count: number): Promise<void> {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const pick = (k: number): string[] => Array.from({ length: k }, () => WORDS[next(WORDS.length)]!);
  for (let i = 0; i < count; i++) {
    const scope = i % 3 === 0 ? 'user' : 'project';
    const dir = scope === 'user' ? path.join(p.home, 'memory', 'user') : path.join(p.root, 'MEMORY');
    await fs.mkdir(dir, { recursive: true });
    const id = `note-${i}`;
    const note = {
      id,
      summary: `${pick(4).join(' ')} notes ${i}`,
      tags: pick(2),
      createdAt: 1_780_000_000_000 + i * 1000,
      updatedAt: 1_780_000_000_000 + i * 1000,
      body: `${pick(30).join(' ')}.\n`,
    };
    await fs.writeFile(path.join(dir, `${id}.md`), serializeNote(note));
  }
}

/** Writes one note by hand into the project (the edit the next warm answer must see); returns its file and fields. */
export async function writeQuokkaNote(p: Place) {
  const file = path.join(p.root, 'MEMORY', 'quokka-habitat.md');
  const note = {
    id: 'quokka-habitat',
    summary: 'Quokka habitat survey',
    tags: ['fieldwork'],
    createdAt: 1_790_000_000_000,
    updatedAt: 1_790_000_000_000,
    body: 'The quokka survey runs on Rottnest.\n',
  };
  await fs.writeFile(file, serializeNote(note));
  return { file, note };
}

export async function place(name: string): Promise<Place> {
  const base = await tempDir(`warm-${name}`);
  const p = {
    base,
    home: path.join(base, 'home'),
    root: path.join(base, 'project'),
    runtime: path.join(base, 'run'),
  };
  await fs.mkdir(p.root, { recursive: true });
  await fs.mkdir(p.runtime, { recursive: true });
  return p;
}

/** A place's processes' environment; runtime null: this process's own advertisement directory. */
export function envOf(p: Place, runtime: string | null = p.runtime): Record<string, string> {
  const own = { ...(process.env.XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR } : {}) };
  return {
    PATH: process.env.PATH ?? '',
    HOME: p.base,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    ...(runtime === null ? own : { XDG_RUNTIME_DIR: runtime }),
  };
}

export function cli(
  p: Place,
  args: string[],
  opts: { stdin?: string; runtime?: string | null; cwd?: string; noProject?: boolean } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        moduleLog,
        bin,
        '--home',
        p.home,
        ...(opts.noProject ? [] : ['--project', p.root]),
        ...args,
      ],
      { cwd: opts.cwd ?? p.root, env: envOf(p, opts.runtime), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    child.on('exit', (code) => {
      const logged = stderr.split('\n').filter((l) => l.startsWith('module-log '));
      resolve({
        code,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => !l.startsWith('module-log '))
          .join('\n'),
        // The cold path loads the CLI through load-cli.js (scripts/build-cli.ts).
        warm: !logged.some((l) => /\/load-cli\.js$/.test(l)),
      });
    });
  });
}

export const adDir = (p: Place): string => path.join(p.runtime, 'memdesk');

export async function advertisement(p: Place): Promise<{ file: string; ad: WarmAdvertisement } | null> {
  const names = (await fs.readdir(adDir(p)).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  if (names.length !== 1) return null;
  const file = path.join(adDir(p), names[0]!);
  const parsed = WarmAdvertisementSchema.safeParse(
    JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')),
  );
  return parsed.success ? { file, ad: parsed.data } : null;
}

/** `memdesk mcp` as an agent starts it: initialize, initialized; ready once it advertises. */
export async function startServer(p: Place): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, '--home', p.home, '--project', p.root, 'mcp'], {
    cwd: p.root,
    env: envOf(p),
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin!.write(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }) + '\n',
  );
  child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  await until(async () => (await advertisement(p))?.ad.pid === child.pid, 60_000);
  return child;
}

export function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    if (signal === 'SIGTERM')
      child.stdin!.end(); // the client closing stdin ends `memdesk mcp`
    else child.kill(signal);
  });
}

export async function hookLog(p: Place): Promise<string> {
  return fs.readFile(path.join(p.home, 'logs', 'hooks.log'), 'utf8').catch(() => '');
}

/** Recall counts per note in a home (the last-recalled times differ between runs). */
export async function usageCounts(p: Place): Promise<Record<string, number>> {
  const dir = path.join(p.home, 'memory-usage');
  const out: Record<string, number> = {};
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const data = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as {
      notes: Record<string, { count: number }>;
    };
    // The project's file is named by its project key, which differs between two places.
    const scope = name === 'user.json' ? 'user' : 'project';
    for (const [id, u] of Object.entries(data.notes)) out[`${scope}:${id}`] = u.count;
  }
  return out;
}

/** One request straight to the warm server's socket, its reply. */
export function ask(ad: WarmAdvertisement, request: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(ad.socket);
    let text = '';
    conn.setEncoding('utf8');
    conn.on('data', (d: string) => (text += d));
    conn.on('end', () => resolve(JSON.parse(text)));
    conn.on('error', reject);
    conn.write(JSON.stringify(request) + '\n');
  });
}

/** The cold path itself, in this process: runCli opens the notes for the one command. */
export async function coldInProcess(
  p: Place,
  args: string[],
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (to: string[]) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        to.push(chunk.toString());
        done();
      },
    });
  const exitCode = await runCli({
    argv: ['--home', p.home, '--project', p.root, ...args],
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    stdout: sink(out),
    stderr: sink(err),
    env: {},
    cwd: p.root,
  });
  return { exitCode, stdout: out.join(''), stderr: err.join('') };
}

/** A place with `notes` notes and a `memdesk mcp` serving it for fn; stopped after (if fn did not). */
export async function withServer(
  name: string,
  notes: number,
  fn: (p: Place, server: ChildProcess) => Promise<void>,
): Promise<void> {
  const p = await place(name);
  await writeCorpus(p, notes);
  const server = await startServer(p);
  try {
    await fn(p, server);
  } finally {
    await stopServer(server);
  }
}

/** The request a client of place p sends for `args` (the token from its advertisement). */
export function request(
  p: Place,
  ad: WarmAdvertisement,
  args: string[],
  json = false,
): Record<string, unknown> {
  return {
    v: WARM_PROTOCOL_VERSION,
    token: ad.token,
    home: p.home,
    projectRoot: p.root,
    envKey: envKey({}),
    command: args[0],
    args,
    json,
    stdin: null,
  };
}
