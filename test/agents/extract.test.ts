import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../electron/agents/extract/transcript.js';
import { startStandInModel, type StandInModel } from '../cleanup/model-standin.js';
import { fixture } from '../hooks/helpers.js';
import { mdFiles } from './harness.js';
import { runMemdesk } from './run-cli.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Extraction against a STAND-IN FOR THE EXTERNAL MODEL (test/cleanup/model-standin.ts: a real
 * OpenAI-compatible HTTP server on loopback). Everything else is real: the CLI in child processes,
 * the detached extraction a Stop hook starts, retain writing notes.
 */
let tmp: string;
let home: string;
let project: string;
let model: StandInModel;
const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

const line = (o: unknown) => JSON.stringify(o);
/** A Claude Code transcript: user and assistant lines, a tool result and a meta line that are not conversation. */
function claudeTranscript(userTurns: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= userTurns; i++) {
    lines.push(
      line({ type: 'user', message: { role: 'user', content: `Question ${i}: use pnpm here, not npm.` } }),
    );
    lines.push(
      line({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}.` }] },
      }),
    );
  }
  lines.push(
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'ok' }] } }),
  );
  lines.push(
    line({
      type: 'user',
      isMeta: true,
      message: { role: 'user', content: '<command-name>/clear</command-name>' },
    }),
  );
  return lines.join('\n') + '\n';
}

const facts = (items: Array<{ content: string; context?: string; rewrites?: string }>) => ({
  kind: 'content' as const,
  content: JSON.stringify({ facts: items }),
});

beforeAll(async () => {
  tmp = await tempDir('extract');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'shop');
  await fs.mkdir(project, { recursive: true });
  model = await startStandInModel();
  await fs.mkdir(path.join(home, 'memory-cleanup'), { recursive: true });
  await fs.writeFile(
    path.join(home, 'memory-cleanup', 'model.json'),
    JSON.stringify({ baseUrl: model.baseUrl, model: 'stand-in-small', timeoutMs: 20_000 }),
  );
}, 60_000);

afterAll(async () => {
  await model.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('transcripts of each harness', () => {
  it('reads user and assistant text only', () => {
    expect(parseTranscript(claudeTranscript(1))).toEqual([
      { role: 'user', text: 'Question 1: use pnpm here, not npm.' },
      { role: 'assistant', text: 'Answer 1.' },
    ]);
    const codex = [
      line({ type: 'session_meta', payload: { id: 's' } }),
      line({
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }],
        },
      }),
      line({
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the build' }] },
      }),
      line({
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] },
      }),
    ].join('\n');
    expect(parseTranscript(codex)).toEqual([
      { role: 'user', text: 'fix the build' },
      { role: 'assistant', text: 'Fixed.' },
    ]);
    const gemini = JSON.stringify(
      {
        sessionId: 's',
        messages: [
          { type: 'user', content: 'hi' },
          { type: 'gemini', content: 'Hello!' },
        ],
      },
      null,
      2,
    );
    expect(parseTranscript(gemini)).toEqual([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'Hello!' },
    ]);
    const cursor = line({
      role: 'user',
      message: {
        content: [
          { type: 'text', text: '<timestamp>now</timestamp>\n<user_query>\ncreate a file\n</user_query>' },
        ],
      },
    });
    expect(parseTranscript(cursor)).toEqual([{ role: 'user', text: 'create a file' }]);
  });
});

describe('memdesk extract', { timeout: 180_000 }, () => {
  it('asks the model, then retains each fact: stored, credentials refused, identical content updated', async () => {
    const file = path.join(tmp, 'manual.jsonl');
    await fs.writeFile(file, claudeTranscript(3));
    model.respond(
      facts([
        {
          content: 'In the shop repository pnpm is used, never npm. #pnpm',
          context: 'the user said so twice',
        },
        { content: `The deploy token is ${token}` },
        { content: 'In the shop repository pnpm is used, never npm. #pnpm' },
      ]),
    );
    const r = await runMemdesk(['--json', 'extract', '--transcript', file], { cwd: project, home });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      status: string;
      saved: number;
      userTurns: number;
      receipts: Array<{ status: string; reason?: string }>;
    };
    expect(out).toMatchObject({ status: 'saved', saved: 1, userTurns: 3 });
    expect(out.receipts.map((x) => x.status)).toEqual(['stored', 'refused', 'updated']);
    expect(out.receipts[1]!.reason).toMatch(/GitHub token/i);
    expect(out.receipts[1]!.reason).not.toContain(token);
    // The model saw the seed's guidance and the conversation, not the tool result or meta lines.
    const request = model.requests.at(-1)!.body;
    expect(request.model).toBe('stand-in-small');
    expect(request.messages[0]!.content).toContain('Do NOT write ephemeral task state');
    expect(request.messages[1]!.content).toContain('User: Question 3: use pnpm here, not npm.');
    expect(request.messages[1]!.content).not.toContain('/clear');
    const notes = await mdFiles(path.join(home, 'memory', 'user'));
    expect(notes).toHaveLength(1);
    const text = await fs.readFile(path.join(home, 'memory', 'user', notes[0]!), 'utf8');
    expect(text).toContain('"project:shop"');
    expect(text).not.toContain('ghp_');
  });

  it('a fact that corrects a related note rewrites that note (backed up first) instead of adding a twin', async () => {
    const home2 = path.join(tmp, 'home-rewrite');
    await fs.mkdir(path.join(home2, 'memory-cleanup'), { recursive: true });
    await fs.copyFile(
      path.join(home, 'memory-cleanup', 'model.json'),
      path.join(home2, 'memory-cleanup', 'model.json'),
    );
    const old = await runMemdesk(['--json', 'retain'], {
      cwd: project,
      home: home2,
      input: JSON.stringify({
        items: [{ content: 'In the shop repository npm is used for installs. #npm' }],
      }),
    });
    const oldId = (JSON.parse(old.stdout) as { receipts: Array<{ id: string }> }).receipts[0]!.id;
    const userDir = path.join(home2, 'memory', 'user');
    const before = await fs.readFile(path.join(userDir, `${oldId}.md`), 'utf8');
    const file = path.join(tmp, 'rewrite.jsonl');
    await fs.writeFile(file, claudeTranscript(3));
    model.respond(
      facts([
        {
          content: 'In the shop repository pnpm is used for installs, never npm. #pnpm',
          context: 'corrected',
          rewrites: 'n1',
        },
        // Not a reference the model was shown (an id, a path): a new note, never an edit of that file.
        { content: 'Releases of the shop are cut on Mondays. #release', rewrites: oldId },
      ]),
    );
    const r = await runMemdesk(['--json', 'extract', '--transcript', file], { cwd: project, home: home2 });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      saved: number;
      receipts: Array<{ id: string; status: string; reason?: string }>;
    };
    expect(out.receipts.map((x) => x.status)).toEqual(['updated', 'stored']);
    expect(out.receipts[0]!.id).toBe(oldId);
    expect(out.receipts[0]!.reason).toMatch(/^rewrote the related note/);
    expect(out.saved).toBe(2);
    // The model was shown the note by reference, with its text.
    expect(model.requests.at(-1)!.body.messages[0]!.content).toContain(
      '- [n1] In the shop repository npm is used for installs.',
    );
    const after = await fs.readFile(path.join(userDir, `${oldId}.md`), 'utf8');
    expect(after).toContain('pnpm is used for installs, never npm');
    expect(after).toContain('"project:shop"');
    expect(after).toContain('"npm"');
    expect(after).toContain('"pnpm"');
    expect(await mdFiles(userDir)).toHaveLength(2);
    // The replaced version is in memory-backups/, byte for byte.
    const backups = (await fs.readdir(path.join(home2, 'memory-backups'), { recursive: true })).map(String);
    const copies = await Promise.all(
      backups
        .filter((b) => b.endsWith('.md'))
        .map((b) => fs.readFile(path.join(home2, 'memory-backups', b), 'utf8')),
    );
    expect(copies).toContain(before);
  });

  it('fewer user messages than memory.autoExtract.minUserTurns: skipped, the model is not asked', async () => {
    const file = path.join(tmp, 'short.jsonl');
    await fs.writeFile(file, claudeTranscript(2));
    const before = model.requests.length;
    const r = await runMemdesk(['--json', 'extract', '--transcript', file], { cwd: project, home });
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'skipped', userTurns: 2 });
    expect(model.requests.length).toBe(before);
  });

  it('the Stop hook: off by default; when turned on it extracts in a detached process and the next prompt says "saved 1 memory"', async () => {
    const transcript = path.join(tmp, 'session.jsonl');
    await fs.writeFile(transcript, claudeTranscript(3));
    const stop = JSON.stringify(
      await fixture('claude-code', 'Stop', { cwd: project, transcript }, { session_id: 'sess-1' }),
    );
    const before = model.requests.length;
    const off = await runMemdesk(['hook', 'claude-code', 'Stop'], { cwd: project, home, input: stop });
    expect(off).toMatchObject({ code: 0, stdout: '' });

    await fs.writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ memory: { autoExtract: { onStop: true } } }),
    );
    model.respond(
      facts([{ content: 'Releases of the shop go out on Thursdays after the QA sign-off. #release' }]),
    );
    const on = await runMemdesk(['hook', 'claude-code', 'Stop'], { cwd: project, home, input: stop });
    expect(on).toMatchObject({ code: 0, stdout: '' }); // answers at once; the extraction runs on its own
    const userDir = path.join(home, 'memory', 'user');
    for (let i = 0; i < 300 && (await mdFiles(userDir)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await mdFiles(userDir)).toHaveLength(2);
    expect(model.requests.length).toBe(before + 1);

    const prompt = JSON.stringify(
      await fixture(
        'claude-code',
        'UserPromptSubmit',
        { cwd: project, transcript },
        { session_id: 'sess-1', prompt: 'thanks' },
      ),
    );
    // The session state is written right after the note: wait for the notice to be there.
    let answer = '';
    for (let i = 0; i < 20 && !answer; i++) {
      answer = (
        await runMemdesk(['hook', 'claude-code', 'UserPromptSubmit'], { cwd: project, home, input: prompt })
      ).stdout;
    }
    expect(JSON.parse(answer)).toEqual({
      systemMessage: 'Memory Desk: saved 1 memory from this conversation',
    });

    // The same conversation is not extracted twice: nothing new since.
    const again = await runMemdesk(
      ['--json', 'extract', '--transcript', transcript, '--trigger', 'stop', '--session', 'sess-1'],
      {
        cwd: project,
        home,
      },
    );
    expect(JSON.parse(again.stdout)).toMatchObject({
      status: 'skipped',
      reason: 'nothing new in the conversation since the last extraction',
    });
    await fs.rm(path.join(home, 'config.json'));
  });
});
