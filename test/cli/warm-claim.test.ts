import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot, type AppRoot } from '../../electron/app/app-root.js';
import type { OpenProject } from '../../electron/app/open-project.js';
import { runCli } from '../../electron/transports/cli/run.js';
import { serveWarm } from '../../electron/transports/cli/warm-answer.js';
import type { WarmRun } from '../../electron/transports/cli/warm-place.js';
import { askWarm, type WarmOutcome, type WarmTimers } from '../../electron/transports/warm/client.js';
import type { WarmServer } from '../../electron/transports/warm/server.js';
import { fixture as memoryFixture, note, until, writeNoteFile } from '../memory/helpers.js';
import { fixture as hookInput } from '../hooks/helpers.js';

/**
 * The claim (shared/warm-protocol.ts): a hook answered warm changes usage and session state only
 * when its caller still waits, and a caller that granted the claim never runs the hook cold — so a
 * recall is counted once whichever side is slow. A real server and client in this process, the
 * real hook code on real files; the client's timers are the test's (fired by hand), the server is
 * stalled by a wrapper around runCli the test releases.
 */

/** Timers that fire only when the test says so. */
function handTimers(): WarmTimers & { fire(): void; pending(): number } {
  const waiting = new Map<number, () => void>();
  let next = 0;
  return {
    after(_ms, fn) {
      const id = next++;
      waiting.set(id, fn);
      return () => waiting.delete(id);
    },
    fire() {
      const due = [...waiting.values()];
      waiting.clear();
      for (const fn of due) fn();
    },
    pending: () => waiting.size,
  };
}

function gate(): { wait: Promise<void>; open(): void } {
  let open = (): void => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

const sink = (): Writable =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

// The hook's own budget (2.5 s, answer-hook.ts) runs on real time: the first hook run in this
// worker also pays vitest's transform of the CLI's modules, so one cold hook runs first.
beforeAll(async () => {
  const fx = await memoryFixture();
  await runCli({
    argv: ['--home', fx.home, '--project', fx.root, 'hook', 'claude-code', 'UserPromptSubmit'],
    stdin: Readable.from([
      Buffer.from(
        JSON.stringify(await hookInput('claude-code', 'UserPromptSubmit', { cwd: fx.root }, { prompt: 'x' })),
      ),
    ]),
    stdout: sink(),
    stderr: sink(),
    env: {},
    cwd: fx.root,
  });
}, 120_000);

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** A home and project with one note a deploy prompt recalls, served warm with `run` wrapped by the test. */
async function served(stall: { before?: Promise<void>; after?: Promise<void> }) {
  const fx = await memoryFixture();
  await writeNoteFile(fx.memoryDir, note('deploy', { summary: 'Deploy with the release checklist' }));
  const runtime = path.join(fx.home, '..', 'run');
  await fs.mkdir(runtime, { recursive: true });
  const root: AppRoot = createAppRoot({ home: fx.home, env: {} });
  const project: OpenProject = await root.open({ projectRoot: fx.root, cwd: fx.root, watch: true });
  let runs = 0;
  let finished = 0;
  const run: WarmRun = async (env) => {
    runs++;
    await stall.before;
    const code = await runCli(env);
    finished++;
    await stall.after;
    return code;
  };
  const server: WarmServer | null = await serveWarm(
    {
      home: fx.home,
      projectRoot: fx.root,
      env: {},
      processEnv: { XDG_RUNTIME_DIR: runtime },
      run,
      services: root,
    },
    project,
  );
  expect(server).not.toBeNull();
  cleanup.push(async () => {
    await server?.close();
    await project.close();
    await root.stop();
  });
  const input = JSON.stringify(
    await hookInput('claude-code', 'UserPromptSubmit', { cwd: fx.root }, { prompt: 'how do we deploy?' }),
  );
  const args = ['hook', 'claude-code', 'UserPromptSubmit'];
  return {
    runs: () => runs,
    finished: () => finished,
    ask: (timers: WarmTimers): Promise<WarmOutcome> =>
      askWarm(
        {
          home: fx.home,
          projectRoot: fx.root,
          env: { XDG_RUNTIME_DIR: runtime },
          command: 'hook',
          args,
          json: false,
          stdin: input,
        },
        timers,
      ),
    /** What warm-first.ts does with a `cold` outcome: the hook run cold, in this process. */
    cold: () =>
      runCli({
        argv: ['--home', fx.home, '--project', fx.root, ...args],
        stdin: Readable.from([Buffer.from(input)]),
        stdout: sink(),
        stderr: sink(),
        env: {},
        cwd: fx.root,
      }),
    count: async () => {
      await project.ctx.core.usage.refresh();
      return project.ctx.core.usage.get('project', 'deploy').count;
    },
  };
}

describe('warm hooks count each recall once', () => {
  it('a server that passed the claim and then stalls: the caller answers empty, never cold', async () => {
    const stalled = gate();
    const s = await served({ after: stalled.wait });
    const timers = handTimers();
    const asked = s.ask(timers);
    // The hook ran to its end on the server (the claim granted, the recall counted); the reply stalls.
    await until(() => s.finished() === 1);
    expect(timers.pending()).toBe(1);
    timers.fire(); // the caller's wait runs out
    const outcome = await asked;
    if (outcome.status === 'cold') await s.cold();
    expect(outcome.status).toBe('unanswered');
    stalled.open();
    expect(await s.count()).toBe(1);
  }, 120_000);

  it('a caller that gave up before the claim: the server changes nothing, the cold run counts', async () => {
    const stalled = gate();
    const s = await served({ before: stalled.wait });
    const timers = handTimers();
    const asked = s.ask(timers);
    await until(() => s.runs() === 1); // the request arrived; the server stalls before the hook
    timers.fire(); // the caller gives up first
    const outcome = await asked;
    expect(outcome).toEqual({ status: 'cold', reason: 'no answer in time' });
    await s.cold();
    stalled.open();
    await until(() => s.finished() === 1);
    expect(await s.count()).toBe(1);
  }, 120_000);

  it('a caller still waiting gets the warm answer, counted once', async () => {
    const s = await served({});
    const outcome = await s.ask(handTimers());
    expect(outcome).toMatchObject({ status: 'answer', exitCode: 0 });
    expect(outcome.status === 'answer' && outcome.stdout).toContain('Deploy with the release checklist');
    expect(await s.count()).toBe(1);
  }, 120_000);
});
