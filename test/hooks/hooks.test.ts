import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../../electron/api/context.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { answerHook } from '../../electron/agents/hooks/answer-hook.js';
import { hookLogPath } from '../../electron/agents/hooks/hook-log.js';
import { sessionsDir } from '../../electron/agents/hooks/session-state.js';
import { LOCK_FILE_NAME } from '../../electron/memory/dir-lock.js';
import { runMemdesk } from '../agents/run-cli.js';
import { fixture } from './helpers.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Each harness's hook contract driven with its own JSON shapes (test/hooks/fixtures, taken from
 * the harnesses' docs and source): the answer in the harness's format, recall once per session,
 * usage counted, and a hook that never breaks the agent.
 */
let tmp: string;
let home: string;
let project: string;
let ctx: HandlerContext;
let hook: (harness: string, event: string, payload: unknown) => Promise<string>;

beforeAll(async () => {
  tmp = await tempDir('hooks');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'shop');
  await fs.mkdir(project, { recursive: true });
  ({ ctx } = await createAppRoot({ home, env: process.env }).open({ projectRoot: project }));
  const handlers = createHandlers(ctx);
  hook = async (harness, event, payload) =>
    ((await invokeApi(handlers, 'agents.hook', { harness, event, payload })) as { output: string }).output;
  const remember = (input: unknown) => invokeApi(handlers, 'notes.remember', input);
  await remember({
    summary: 'Factorial helpers live in mathutil',
    tags: ['factorial', 'math'],
    body: 'Use mathutil.factorial; see [[bigint-rule]].',
    type: 'project',
  });
  await remember({
    summary: 'BigInt rule for huge values',
    body: 'Use BigInt above 2^53.',
    type: 'project',
    id: 'bigint-rule',
  });
  await remember({
    summary: 'Greeting style: hello in lower case',
    tags: ['hello'],
    body: 'Always lower case.',
    type: 'user',
  });
}, 60_000);

afterAll(async () => {
  await ctx.core.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('Claude Code', { timeout: 120_000 }, () => {
  it('SessionStart: the memory prompt as additionalContext (real CLI, stdin → stdout)', async () => {
    const input = JSON.stringify(await fixture('claude-code', 'SessionStart', { cwd: project }));
    const r = await runMemdesk(['hook', 'claude-code', 'SessionStart'], { cwd: project, home, input });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('# Memory');
    expect(out.hookSpecificOutput.additionalContext).toContain('Factorial helpers live in mathutil');
  });

  it('UserPromptSubmit: <recalled-memory> once per session, counted, linked notes by summary', async () => {
    const input = JSON.stringify(await fixture('claude-code', 'UserPromptSubmit', { cwd: project }));
    const r = await runMemdesk(['hook', 'claude-code', 'UserPromptSubmit'], { cwd: project, home, input });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
      systemMessage: string;
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const block = out.hookSpecificOutput.additionalContext;
    expect(block).toMatch(
      /^<recalled-memory>\n<note id="factorial-helpers-live-in-mathutil-[0-9a-z]+" scope="project" type="project">/,
    );
    expect(block).toContain('- bigint-rule (project): BigInt rule for huge values');
    expect(out.systemMessage).toBe('Memory Desk: recalled 1 memory');

    // The same session does not get it again; another session does.
    expect(await hook('claude-code', 'UserPromptSubmit', JSON.parse(input))).toBe('');
    const other = await fixture('claude-code', 'UserPromptSubmit', { cwd: project }, { session_id: 'other' });
    expect(await hook('claude-code', 'UserPromptSubmit', other)).toContain('<recalled-memory>');
    // A compaction frees what the summarised messages carried.
    await hook(
      'claude-code',
      'SessionStart',
      await fixture('claude-code', 'SessionStart', { cwd: project }, { source: 'compact' }),
    );
    expect(await hook('claude-code', 'UserPromptSubmit', JSON.parse(input))).toContain('<recalled-memory>');

    await ctx.core.usage.refresh();
    const id = /note id="([^"]+)"/.exec(block)![1]!;
    expect(ctx.core.usage.get('project', id).count).toBe(3);
  });

  it('Stop and PreCompact answer nothing while extraction is off (the default)', async () => {
    expect(await hook('claude-code', 'Stop', await fixture('claude-code', 'Stop', { cwd: project }))).toBe(
      '',
    );
    expect(
      await hook('claude-code', 'PreCompact', await fixture('claude-code', 'PreCompact', { cwd: project })),
    ).toBe('');
  });
});

describe('Codex CLI, Gemini CLI, Cursor', { timeout: 120_000 }, () => {
  it("Codex: Claude Code's format, hookEventName per event", async () => {
    const start = JSON.parse(
      await hook('codex', 'SessionStart', await fixture('codex', 'SessionStart', { cwd: project })),
    );
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(start.hookSpecificOutput.additionalContext).toContain('Greeting style');
    const prompt = JSON.parse(
      await hook('codex', 'UserPromptSubmit', await fixture('codex', 'UserPromptSubmit', { cwd: project })),
    );
    expect(prompt.hookSpecificOutput).toMatchObject({ hookEventName: 'UserPromptSubmit' });
    expect(prompt.hookSpecificOutput.additionalContext).toContain('Greeting style: hello in lower case');
    expect(await hook('codex', 'Stop', await fixture('codex', 'Stop', { cwd: project }))).toBe('');
  });

  it('Gemini: BeforeAgent adds the block; an empty answer is {}', async () => {
    const start = JSON.parse(
      await hook('gemini', 'SessionStart', await fixture('gemini', 'SessionStart', { cwd: project })),
    );
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const before = JSON.parse(
      await hook('gemini', 'BeforeAgent', await fixture('gemini', 'BeforeAgent', { cwd: project })),
    );
    expect(before.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(before.hookSpecificOutput.additionalContext).toContain('<recalled-memory>');
    expect(
      await hook('gemini', 'BeforeAgent', await fixture('gemini', 'BeforeAgent', { cwd: project })),
    ).toBe('{}');
    expect(await hook('gemini', 'AfterAgent', await fixture('gemini', 'AfterAgent', { cwd: project }))).toBe(
      '{}',
    );
    expect(
      await hook('gemini', 'PreCompress', await fixture('gemini', 'PreCompress', { cwd: project })),
    ).toBe('{}');
  });

  it('Cursor: sessionStart gets additional_context; the prompt kept at beforeSubmitPrompt is recalled for at the first postToolUse, once', async () => {
    const start = JSON.parse(
      await hook('cursor', 'sessionStart', await fixture('cursor', 'sessionStart', { cwd: project })),
    );
    expect(Object.keys(start)).toEqual(['additional_context']);
    expect(start.additional_context).toContain('Factorial helpers');
    const conversation = { conversation_id: 'cursor-recall-1' };
    const tool = await fixture('cursor', 'postToolUse', { cwd: project }, conversation);
    // No prompt kept yet: nothing to attach.
    expect(await hook('cursor', 'postToolUse', tool)).toBe('{}');
    // The prompt goes through at once (Cursor cannot add context here); it is kept for the turn.
    const prompt = await fixture(
      'cursor',
      'beforeSubmitPrompt',
      { cwd: project },
      {
        ...conversation,
        prompt: 'Write a function to calculate the factorial of a number',
      },
    );
    expect(await hook('cursor', 'beforeSubmitPrompt', prompt)).toBe('{"continue":true}');
    const first = JSON.parse(await hook('cursor', 'postToolUse', tool));
    expect(Object.keys(first)).toEqual(['additional_context']);
    expect(first.additional_context).toMatch(/^<recalled-memory>\n<note id="factorial-helpers/);
    // Later tool uses of the same turn attach nothing more.
    expect(await hook('cursor', 'postToolUse', tool)).toBe('{}');
    // The CLI answers beforeSubmitPrompt without opening the notes, in Cursor's format.
    const r = await runMemdesk(['hook', 'cursor', 'beforeSubmitPrompt'], {
      cwd: project,
      home,
      input: JSON.stringify({ ...prompt, conversation_id: 'cursor-recall-2' }),
    });
    expect(r.stdout.trim()).toBe('{"continue":true}');
    const viaCli = JSON.parse(
      await hook('cursor', 'postToolUse', { ...tool, conversation_id: 'cursor-recall-2' }),
    );
    expect(viaCli.additional_context).toContain('Factorial helpers');
    // Stop with extraction off (the default) needs no note either: answered by the CLI at once.
    const stop = await runMemdesk(['hook', 'cursor', 'stop'], {
      cwd: project,
      home,
      input: JSON.stringify(await fixture('cursor', 'stop', { cwd: project })),
    });
    expect([stop.code, stop.stdout.trim()]).toEqual([0, '{}']);
    expect(await hook('cursor', 'stop', await fixture('cursor', 'stop', { cwd: project }))).toBe('{}');
  });

  it('Cursor runs user hooks from ~/.cursor: the workspace root in the input picks the project', async () => {
    const elsewhere = path.join(tmp, 'dot-cursor');
    await fs.mkdir(elsewhere, { recursive: true });
    const input = JSON.stringify(await fixture('cursor', 'sessionStart', { cwd: project }));
    const r = await runMemdesk(['hook', 'cursor', 'sessionStart'], { cwd: elsewhere, home, input });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).additional_context).toContain('Factorial helpers live in mathutil');
  });
});

describe('a hook never breaks the agent', { timeout: 120_000 }, () => {
  it('input that is not JSON: empty answer, exit 0, one log line', async () => {
    const r = await runMemdesk(['hook', 'claude-code', 'UserPromptSubmit'], {
      cwd: project,
      home,
      input: '{"prompt": "trunc',
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const log = await fs.readFile(hookLogPath(home), 'utf8');
    expect(log.trim().split('\n')).toHaveLength(1);
    expect(log).toMatch(/claude-code UserPromptSubmit: Error: the hook input on stdin is not JSON\n$/);
    expect(log).not.toContain('trunc');
  });

  it('an event it does not answer: the empty answer, nothing logged', async () => {
    expect(await hook('claude-code', 'PostToolUse', { tool_name: 'Write' })).toBe('');
    expect(await hook('gemini', 'BeforeTool', {})).toBe('{}');
  });

  it('past its time budget it answers empty and logs why', async () => {
    // Another (live) process holds the session directory: the hook cannot finish in time.
    await fs.mkdir(sessionsDir(home), { recursive: true });
    const lock = path.join(sessionsDir(home), LOCK_FILE_NAME);
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: process.pid, host: os.hostname(), at: Date.now(), token: 'held' }),
    );
    try {
      const payload = await fixture(
        'claude-code',
        'UserPromptSubmit',
        { cwd: project },
        { session_id: 'slow' },
      );
      const answer = await answerHook(
        { core: ctx.core, env: ctx.env, startExtraction: () => {}, budgetMs: 300 },
        { harness: 'claude-code', event: 'UserPromptSubmit', payload },
      );
      expect(answer).toEqual({ output: '' });
      expect(await fs.readFile(hookLogPath(home), 'utf8')).toContain(
        "no answer within the hook's budget of 300 ms",
      );
    } finally {
      const states = async () =>
        (await fs.readdir(sessionsDir(home))).filter((n) => n.endsWith('.json')).length;
      const before = await states();
      await fs.rm(lock, { force: true });
      // The abandoned work goes on once the lock is free: let it finish before the directory goes.
      for (let i = 0; i < 200 && (await states()) === before; i++)
        await new Promise((r) => setTimeout(r, 50));
    }
  });
});
