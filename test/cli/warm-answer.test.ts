import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { serializeNote } from '../../shared/note-format.js';
import {
  WarmAdvertisementSchema,
  WarmReplySchema,
  type WarmAdvertisement,
} from '../../shared/warm-protocol.js';
import { runCli } from '../../electron/transports/cli/run.js';
import { startWebBridge } from '../../electron/transports/http/web-bridge.js';
import { readAdvertisement } from '../../electron/transports/warm/advertisement.js';
import { advertisementPath, envKey, warmDir } from '../../electron/transports/warm/place.js';
import { tempDir, until } from '../memory/helpers.js';
import { fixture as hookInput } from '../hooks/helpers.js';

/**
 * Warm answers (docs/agents.md "Warm answers"): real `memdesk` processes from the CLI bundle, a real
 * `memdesk mcp` as the long-running process, real temp homes. Whether a run was answered warm is
 * read from the modules it loaded: a cold run loads the CLI's run chunk, a warm one never does.
 */
const moduleLog = new URL('./module-log/register.mjs', import.meta.url).href;

let bin = '';
let bundleDir = '';
beforeAll(async () => {
  bundleDir = await tempDir('warm-bundle');
  bin = await buildCliBundle(path.join(bundleDir, 'cli'));
}, 120_000);
afterAll(async () => {
  await fs.rm(bundleDir, { recursive: true, force: true });
});

interface Place {
  base: string;
  home: string;
  root: string;
  /** XDG_RUNTIME_DIR of this place's processes: where the warm server advertises. */
  runtime: string;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  warm: boolean;
}

const WORDS = (
  'deploy release checklist staging rollback database migration postgres index vacuum cache redis ' +
  'invalidation queue worker retry backoff timeout logging tracing metrics alert pager oncall ' +
  'review lint format typescript eslint vitest coverage flaky docker image registry kubernetes ' +
  'helm secret rotation certificate renewal backup restore snapshot budget invoice billing'
).split(' ');

/** The same deterministic notes in any place: summaries, tags and bodies from WORDS. */
async function writeCorpus(p: Place, count: number): Promise<void> {
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

async function place(name: string): Promise<Place> {
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
function envOf(p: Place, runtime: string | null = p.runtime): Record<string, string> {
  const own = { ...(process.env.XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR } : {}) };
  return {
    PATH: process.env.PATH ?? '',
    HOME: p.base,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    ...(runtime === null ? own : { XDG_RUNTIME_DIR: runtime }),
  };
}

function cli(
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
        warm: !logged.some((l) => /\/chunks\/run-[^/]*\.js$/.test(l)),
      });
    });
  });
}

const adDir = (p: Place): string => path.join(p.runtime, 'memdesk');

async function advertisement(p: Place): Promise<{ file: string; ad: WarmAdvertisement } | null> {
  const names = (await fs.readdir(adDir(p)).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  if (names.length !== 1) return null;
  const file = path.join(adDir(p), names[0]!);
  const parsed = WarmAdvertisementSchema.safeParse(
    JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')),
  );
  return parsed.success ? { file, ad: parsed.data } : null;
}

/** `memdesk mcp` as an agent starts it: initialize, initialized; ready once it advertises. */
async function startServer(p: Place): Promise<ChildProcess> {
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

function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    if (signal === 'SIGTERM')
      child.stdin!.end(); // the client closing stdin ends `memdesk mcp`
    else child.kill(signal);
  });
}

async function hookLog(p: Place): Promise<string> {
  return fs.readFile(path.join(p.home, 'logs', 'hooks.log'), 'utf8').catch(() => '');
}

/** Recall counts per note in a home (the last-recalled times differ between runs). */
async function usageCounts(p: Place): Promise<Record<string, number>> {
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
function ask(ad: WarmAdvertisement, request: Record<string, unknown>): Promise<unknown> {
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
async function coldInProcess(
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

const QUERIES = [
  'how do we deploy to staging?',
  'postgres vacuum and index maintenance',
  'redis cache invalidation after a release',
  'retry with backoff on queue timeout',
  'rotate the certificate before renewal',
  'which eslint and vitest settings do we use',
  'docker image registry for kubernetes helm',
  'backup restore snapshot budget',
  'nothing in here matches zebra xylophone',
  'billing invoice alert pager oncall',
];

describe('warm answers from a running memdesk process', () => {
  it('are served by the web bridge too', async () => {
    const p = await place('bridge');
    await writeCorpus(p, 20);
    const bridge = await startWebBridge({
      home: p.home,
      projectRoot: p.root,
      port: 0,
      env: {},
      sync: false,
      consolidation: false,
    });
    try {
      // The bridge runs in this test worker, whose first answer also pays vitest's transform of the
      // CLI modules (seconds on a loaded machine, past the client's wait): one request first.
      const { ad } = readAdvertisement(advertisementPath(warmDir(process.env), p.home, p.root));
      await ask(ad!, {
        v: 1,
        token: ad!.token,
        home: p.home,
        projectRoot: p.root,
        envKey: envKey({}),
        command: 'recall',
        args: ['recall', QUERIES[1]],
        json: false,
        stdin: null,
      });
      const w = await cli(p, ['recall', QUERIES[0]!], { runtime: null });
      const c = await cli(p, ['recall', QUERIES[0]!]);
      expect(w.warm, w.stderr).toBe(true);
      expect(c.warm).toBe(false);
      expect(w.stdout).toBe(c.stdout);
    } finally {
      await bridge.close();
    }
  }, 120_000);

  it('answers recall and hooks exactly as the cold path does, and counts each recall once', async () => {
    const warm = await place('a');
    const cold = await place('b');
    await writeCorpus(warm, 60);
    await writeCorpus(cold, 60);
    const server = await startServer(warm);
    const noServer = path.join(warm.base, 'no-server');
    try {
      for (const q of QUERIES) {
        for (const args of [
          ['recall', q],
          ['--json', 'recall', q],
          ['recall', q, '--attached', 'note-1,note-3'],
        ]) {
          const w = await cli(warm, args);
          const c = await cli(warm, args, { runtime: noServer });
          expect(w.warm, `${args.join(' ')}: ${w.stderr}`).toBe(true);
          expect(c.warm).toBe(false);
          expect({ code: w.code, stdout: w.stdout, stderr: w.stderr }).toEqual({
            code: c.code,
            stdout: c.stdout,
            stderr: c.stderr,
          });
        }
      }
      // Many more queries straight over the socket, against the cold path run in this process.
      const { ad } = (await advertisement(warm))!;
      for (let i = 0; i < 40; i++) {
        const q = `${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${i % 3 ? 'notes' : ''}`;
        const json = i % 2 === 0;
        const reply = WarmReplySchema.parse(
          await ask(ad, {
            v: 1,
            token: ad.token,
            home: warm.home,
            projectRoot: warm.root,
            envKey: envKey({}),
            command: 'recall',
            args: ['recall', q],
            json,
            stdin: null,
          }),
        );
        const expected = await coldInProcess(warm, [...(json ? ['--json'] : []), 'recall', q]);
        expect(reply, q).toEqual({ v: 1, status: 'answer', ...expected });
      }
      // Hooks record usage and session state: the same calls in two homes with the same notes, one
      // answered warm, one cold, must give the same answers and the same counts.
      const calls: Array<[string, string, (p: Place) => Promise<Record<string, unknown>>]> = [
        ['claude-code', 'SessionStart', (p) => hookInput('claude-code', 'SessionStart', { cwd: p.root })],
        ...QUERIES.slice(0, 6).map(
          (prompt, i) =>
            [
              'claude-code',
              'UserPromptSubmit',
              (p: Place) =>
                hookInput(
                  'claude-code',
                  'UserPromptSubmit',
                  { cwd: p.root },
                  { prompt, session_id: `s${i % 2}` },
                ),
            ] as [string, string, (p: Place) => Promise<Record<string, unknown>>],
        ),
        [
          'gemini',
          'BeforeAgent',
          (p) => hookInput('gemini', 'BeforeAgent', { cwd: p.root }, { prompt: QUERIES[0] }),
        ],
      ];
      for (const [harness, event, input] of calls) {
        const w = await cli(warm, ['hook', harness, event], { stdin: JSON.stringify(await input(warm)) });
        const c = await cli(cold, ['hook', harness, event], { stdin: JSON.stringify(await input(cold)) });
        expect(w.warm, `${harness} ${event}: ${w.stderr}`).toBe(true);
        expect(c.warm).toBe(false);
        expect(w.stdout).toBe(c.stdout);
        expect(w.code).toBe(0);
      }
      expect(Object.keys(await usageCounts(warm)).length).toBeGreaterThan(0);
      expect(await usageCounts(warm)).toEqual(await usageCounts(cold));
    } finally {
      await stopServer(server);
    }
    // The server is gone: the same home answers cold from here on, and the counts still add up.
    expect(await advertisement(warm)).toBeNull();
    for (const prompt of QUERIES.slice(6)) {
      for (const p of [warm, cold]) {
        const r = await cli(p, ['hook', 'claude-code', 'UserPromptSubmit'], {
          stdin: JSON.stringify(
            await hookInput(
              'claude-code',
              'UserPromptSubmit',
              { cwd: p.root },
              { prompt, session_id: 'late' },
            ),
          ),
        });
        expect(r.warm).toBe(false);
      }
    }
    expect(await usageCounts(warm)).toEqual(await usageCounts(cold));
    expect(await hookLog(warm)).toBe(''); // no server advertised is the usual case: nothing to log
  }, 600_000);

  it('sees a note edited on disk in the next warm answer', async () => {
    const p = await place('edit');
    await writeCorpus(p, 20);
    const server = await startServer(p);
    try {
      const file = path.join(p.root, 'MEMORY', 'quokka-habitat.md');
      const written = {
        id: 'quokka-habitat',
        summary: 'Quokka habitat survey',
        tags: ['fieldwork'],
        createdAt: 1_790_000_000_000,
        updatedAt: 1_790_000_000_000,
        body: 'The quokka survey runs on Rottnest.\n',
      };
      await fs.writeFile(file, serializeNote(written));
      const added = await cli(p, ['--json', 'recall', 'quokka survey']);
      expect(added.warm).toBe(true);
      expect((JSON.parse(added.stdout) as { notes: Array<{ id: string }> }).notes.map((n) => n.id)).toEqual([
        'quokka-habitat',
      ]);
      // A hook run from another directory (as Cursor runs user hooks) asks the session project's server.
      const elsewhere = await cli(p, ['hook', 'claude-code', 'UserPromptSubmit'], {
        cwd: p.base,
        noProject: true,
        stdin: JSON.stringify(
          await hookInput('claude-code', 'UserPromptSubmit', { cwd: p.root }, { prompt: 'quokka survey' }),
        ),
      });
      expect(elsewhere.warm).toBe(true);
      expect(elsewhere.stdout).toContain('Quokka habitat survey');
      // Edited in place: the summary now names wombats, not quokkas.
      await fs.writeFile(
        file,
        serializeNote({ ...written, summary: 'Wombat burrow survey', body: 'Wombat burrows.\n' }),
      );
      const edited = await cli(p, ['--json', 'recall', 'wombat burrow survey']);
      expect(edited.warm).toBe(true);
      expect((JSON.parse(edited.stdout) as { notes: Array<{ summary: string }> }).notes[0]?.summary).toBe(
        'Wombat burrow survey',
      );
      expect((await cli(p, ['recall', 'quokka'])).stdout).toBe('nothing would be recalled\n');
      await fs.rm(file);
      const removed = await cli(p, ['recall', 'wombat burrow survey']);
      expect(removed.warm).toBe(true);
      expect(removed.stdout).toBe('nothing would be recalled\n');
    } finally {
      await stopServer(server);
    }
  }, 300_000);

  it('answers cold after the server is killed, and from a stale advertisement', async () => {
    const p = await place('kill');
    await writeCorpus(p, 20);
    const server = await startServer(p);
    const before = await cli(p, ['recall', QUERIES[0]!]);
    expect(before.warm).toBe(true);
    const { ad, file } = (await advertisement(p))!;
    await stopServer(server, 'SIGKILL');
    // kill -9 leaves the advertisement and the socket behind.
    expect((await advertisement(p))?.ad.pid).toBe(ad.pid);
    const after = await cli(p, ['recall', QUERIES[0]!]);
    expect(after.warm).toBe(false);
    expect(after.stdout).toBe(before.stdout);
    expect(await hookLog(p)).toMatch(/ warm recall: answered cold: advertised process is gone\n$/);
    // A pid that is alive but another process now (its start differs): this test's own.
    await fs.writeFile(file, JSON.stringify({ ...ad, pid: process.pid, start: 'another start' }), {
      mode: 0o600,
    });
    const reused = await cli(p, ['recall', QUERIES[0]!]);
    expect(reused.warm).toBe(false);
    expect(reused.stdout).toBe(before.stdout);
    expect(await hookLog(p)).toMatch(/answered cold: advertised pid belongs to another process now\n$/);
    // An advertisement others could read is not believed.
    await fs.chmod(file, 0o644);
    expect((await cli(p, ['recall', QUERIES[0]!])).warm).toBe(false);
    expect(await hookLog(p)).toMatch(/answered cold: advertisement not private to this user\n$/);
  }, 300_000);

  it('refuses a wrong token and another home, and never logs the token or the message', async () => {
    const p = await place('token');
    await writeCorpus(p, 20);
    const server = await startServer(p);
    try {
      const { ad, file } = (await advertisement(p))!;
      const request = {
        v: 1,
        token: ad.token,
        home: p.home,
        projectRoot: p.root,
        envKey: envKey({}),
        command: 'recall',
        args: ['recall', QUERIES[0]],
        json: false,
        stdin: null,
      };
      const good = WarmReplySchema.parse(await ask(ad, request));
      expect(good).toMatchObject({ status: 'answer', exitCode: 0 });
      const wrong =
        `${ad.token.slice(0, -4)}AAAA` === ad.token
          ? `${ad.token.slice(0, -4)}BBBB`
          : `${ad.token.slice(0, -4)}AAAA`;
      expect(await ask(ad, { ...request, token: wrong })).toEqual({
        v: 1,
        status: 'cold',
        reason: 'token refused',
      });
      expect(await ask(ad, { ...request, home: path.join(p.base, 'other-home') })).toEqual({
        v: 1,
        status: 'cold',
        reason: 'another home or project',
      });
      expect(
        await ask(ad, { ...request, envKey: envKey({ OHARNESS_MEMORY_RECALL_PER_TURN: '1' }) }),
      ).toMatchObject({
        status: 'cold',
      });
      // The CLI given a wrong token (an advertisement replaced meanwhile) answers cold, the same.
      await fs.writeFile(file, JSON.stringify({ ...ad, token: wrong }), { mode: 0o600 });
      const refused = await cli(p, ['recall', QUERIES[0]!]);
      expect(refused.warm).toBe(false);
      expect(refused.stdout).toBe(good.status === 'answer' ? good.stdout : '');
      const log = await hookLog(p);
      expect(log).toMatch(/answered cold: warm process declined: token refused\n$/);
      expect(log).not.toContain(ad.token);
      expect(log).not.toContain(wrong);
      expect(log).not.toContain('deploy');
    } finally {
      await stopServer(server);
    }
  }, 300_000);
});
