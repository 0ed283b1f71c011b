import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import type { OpenProject } from '../../electron/app/open-project.js';
import { withDirLock } from '../../electron/memory/dir-lock.js';
import { readRecord, type OwnerRole } from '../../electron/sync/owner/owner-lock.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { afterAll, beforeAll } from 'vitest';
import type { SyncServerOptions } from '../../server/app.js';
import { cli } from '../sync/cli-runner.js';
import { FakeClock } from '../sync/fake-clock.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { CLI_ENTRY, eventually, REPO, spawnNode, TSX, type Child } from './children.js';

/** One computer: a home, registered projects by id, signed in to the test server. */
export interface TestDevice {
  home: string;
  roots: Record<string, string>;
  args(project: string): string[];
  /** The pid the home's owner lock names, or null. */
  ownerPid(): number | null;
}

export async function device(
  name: string,
  projectIds: string[],
  origin: string,
  token: string,
): Promise<TestDevice> {
  const home = await tempDir(`${name}-home`);
  const roots: Record<string, string> = {};
  for (const id of projectIds) {
    const root = await tempDir(`${name}-${id}`);
    await fs.mkdir(path.join(root, '.oharness'), { recursive: true });
    await fs.writeFile(path.join(root, '.oharness', 'project.json'), JSON.stringify({ id }));
    roots[id] = root;
  }
  const args = (project: string) => ['--home', home, '--project', roots[project]!];
  const first = projectIds[0]!;
  const login = await cli([...args(first), 'login', '--origin', origin, '--token', token], roots[first]!);
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  return {
    home,
    roots,
    args,
    ownerPid: () => {
      const record = readRecord(ownerPaths(home).lockFile);
      return typeof record === 'object' ? record.pid : null;
    },
  };
}

/**
 * Syncs the device's project (this test process) until a note file holds `marker`; `between`
 * runs before each look (a test on an injected clock moves it there).
 */
export async function arrives(
  on: TestDevice,
  project: string,
  marker: string,
  between?: () => Promise<void>,
): Promise<void> {
  const root = on.roots[project]!;
  await eventually(async () => {
    await between?.();
    const run = await cli([...on.args(project), 'sync'], root);
    if (run.code !== 0) throw new Error(`sync failed: ${run.stderr}`);
    const dir = path.join(root, 'MEMORY');
    for (const name of await fs.readdir(dir).catch(() => [] as string[]))
      if ((await fs.readFile(path.join(dir, name), 'utf8')).includes(marker)) return true;
    await new Promise((r) => setTimeout(r, 300));
    return null;
  }, `a note holding "${marker}" on ${root}`);
}

/** `memdesk mcp` as a real child process, driven by the MCP SDK's client. */
export interface McpProcess {
  pid: number;
  /** What the server wrote to stderr so far (the MCP client's log). */
  stderr(): string;
  remember(summary: string, body: string): Promise<void>;
  close(): Promise<void>;
}

export async function startMcp(
  on: TestDevice,
  project: string,
  env: Record<string, string>,
): Promise<McpProcess> {
  const root = on.roots[project]!;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX, CLI_ENTRY, ...on.args(project), 'mcp'],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: root, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sync-owner-test', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    pid,
    stderr: () => stderr,
    async remember(summary, body) {
      const result = await client.callTool({
        name: 'remember',
        arguments: { summary, body, type: 'project' },
      });
      if (result.isError) throw new Error(`remember failed: ${JSON.stringify(result.content)}; ${stderr}`);
    },
    close: () => client.close(),
  };
}

/** `memdesk remember` as a real one-shot child process; resolves with its exit code. */
export async function rememberOnce(
  on: TestDevice,
  project: string,
  summary: string,
  body: string,
  env: Record<string, string>,
): Promise<{ pid: number; code: number | null; stderr: string }> {
  const root = on.roots[project]!;
  const run = spawnNode(
    CLI_ENTRY,
    [...on.args(project), 'remember', '--summary', summary, '--type', 'project', '--body', body],
    env,
    root,
  );
  run.child.stdin!.end('');
  const code = await run.exited;
  return { pid: run.pid, code, stderr: run.stderr() };
}

/**
 * What the multi-process owner files share: one real sync server, devices A and B of one account
 * on projects P and Q, a trace file for A's rounds (MEMDESK_SYNC_TRACE), and the processes a file
 * starts — MCP servers closed and lock-holding children killed after the file.
 */
export interface OwnerScene {
  server: TestServer;
  a: TestDevice;
  b: TestDevice;
  trace: string;
  /** The environment of device A's processes: its home, and the trace file. */
  env: Record<string, string>;
  running: McpProcess[];
  /** `memdesk mcp` of device A for `project` as a real child, once it owns the home's sync. */
  ownerMcp(project: string): Promise<McpProcess>;
  /**
   * A real child process holding `lockFile` (hold-lock.ts) with a live heartbeat, as an owner or
   * an encryption change holds its lock; resolves once it has it.
   */
  lockHolder(lockFile: string): Promise<Child>;
}

export function useOwnerScene(
  user: string,
  server: () => Promise<Partial<SyncServerOptions>> = async () => ({}),
): OwnerScene {
  const holders: Child[] = [];
  const scene = {
    running: [] as McpProcess[],
    async ownerMcp(project: string) {
      const mcp = await startMcp(scene.a, project, scene.env);
      scene.running.push(mcp);
      await eventually(() => scene.a.ownerPid() === mcp.pid || null, 'the MCP server owns sync');
      return mcp;
    },
    async lockHolder(lockFile: string) {
      const holder = spawnNode(path.join(REPO, 'test/sync-owner/hold-lock.ts'), [lockFile, 'hold']);
      holders.push(holder);
      if ((await holder.line(/acquired|refused/)) !== 'acquired') throw new Error(`${lockFile} is taken`);
      return holder;
    },
  } as OwnerScene;
  beforeAll(async () => {
    scene.server = await startTestServer(await server());
    const token = await scene.server.token(user);
    scene.a = await device('a', ['proj-p', 'proj-q'], scene.server.url, token);
    scene.b = await device('b', ['proj-p', 'proj-q'], scene.server.url, token);
    scene.trace = path.join(await tempDir(`${user}-trace`), 'rounds.jsonl');
    scene.env = { OHARNESS_HOME: scene.a.home, MEMDESK_SYNC_TRACE: scene.trace };
  }, 300_000);
  afterAll(async () => {
    for (const m of scene.running) await m.close().catch(() => undefined);
    for (const h of holders) await h.kill9();
    await scene.server?.close();
  });
  return scene;
}

/** How many requests reached the server while `step` ran (the tests on an injected clock). */
export async function requestsDuring(server: TestServer, step: () => Promise<void>): Promise<number> {
  const before = server.requests.length;
  await step();
  return server.requests.length - before;
}

/** One line of MEMDESK_SYNC_TRACE (electron/app/process-sync.ts). */
export interface TraceLine {
  pid: number;
  event: string;
  key: string;
  manual: boolean;
}

/** The trace file's lines, only those of `event` when given. */
export async function readTrace(file: string, event?: string): Promise<TraceLine[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TraceLine)
    .filter((l) => event === undefined || l.event === event);
}

/**
 * Takes the home's rounds lock in this process and keeps it until the returned function is
 * called (which resolves once it is released): rounds of every other process wait meanwhile.
 */
export async function holdRoundsLock(home: string): Promise<() => Promise<void>> {
  const { roundsDir } = ownerPaths(home);
  await fs.mkdir(roundsDir, { recursive: true });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const holder = withDirLock(roundsDir, async () => {
    locked();
    await released;
  });
  await holding;
  return async () => {
    release();
    await holder;
  };
}

/**
 * A long-running process's composition root (by default role `app`, as the desktop app builds it)
 * in this process, on an injected clock with a 2 s heartbeat, with `open` opened (watched).
 */
export async function rootOnClock(
  home: string,
  open: { projectRoot?: string },
  { role = 'app', env = {} }: { role?: OwnerRole; env?: Record<string, string> } = {},
) {
  const clock = new FakeClock(Date.now());
  const root = createAppRoot({
    home,
    env,
    sync: { autoStart: true, clock, owner: { role, heartbeatMs: 2_000 } },
    syncOnOpen: true,
  });
  const project = await root.open({ ...open, watch: true });
  const sync = await root.sync();
  return {
    clock,
    root,
    project,
    sync,
    ownership: root.ownership()!,
    /** For clock.advance: the engine's rounds settle between steps. */
    idle: () => sync.engine.coordinator.idle(),
    async close(): Promise<void> {
      await project.close();
      await root.stop();
    },
  };
}

/** A project note written through the open project's store, as a process's own write. */
export async function writeProjectNote(
  project: OpenProject,
  clock: FakeClock,
  note: { id: string; summary: string; body: string },
): Promise<void> {
  await project.ctx.core.store('project')!.write({
    ...note,
    tags: [],
    createdAt: clock.now(),
    updatedAt: clock.now(),
    type: 'project',
  });
}
