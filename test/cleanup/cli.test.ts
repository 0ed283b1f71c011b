import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/transports/cli/run.js';
import { DAY, sandbox, type Sandbox } from './helpers.js';
import { startStandInModel, type StandInModel } from './model-standin.js';

let sb: Sandbox;
let model: StandInModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  await sb?.close();
});

/**
 * Runs the real `memdesk` CLI entry (argv parsing, the API table, output formatting) in this
 * process against the sandbox; child processes cost seconds each on a loaded CI machine.
 */
async function memdesk(
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        append(chunk.toString('utf8'));
        cb();
      },
    });
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const code = await runCli({
    argv: ['--home', sb.home, '--project', sb.root, '--json', ...args],
    stdin,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    env: { OHARNESS_HOME: sb.home },
    cwd: sb.root,
  });
  return { code, stdout, stderr };
}

describe('memdesk CLI: findings, dismiss, merge plan / apply, model', () => {
  it('lists findings, plans and applies an edited merge, dismisses a finding', async () => {
    sb = await sandbox();
    const t = sb.clock.t;
    await sb.put('project', {
      id: 'utc-a',
      summary: 'Log timestamps are in UTC',
      tags: ['logging'],
      createdAt: t - 9 * DAY,
      updatedAt: Date.now(),
    });
    await sb.put('project', {
      id: 'utc-b',
      summary: 'Logs use UTC timestamps',
      tags: ['logging'],
      createdAt: t - 2 * DAY,
      updatedAt: Date.now(),
      body: 'ISO 8601.',
    });
    await sb.put('project', {
      id: 'links',
      summary: 'Links',
      updatedAt: Date.now(),
      body: 'see [[utc-b]] and [[ghost]]',
    });

    const findings = await memdesk(['findings']);
    expect(findings.code).toBe(0);
    const list = JSON.parse(findings.stdout).findings as Array<{
      id: string;
      kind: string;
      scope: string;
      noteIds: string[];
      detail: string;
    }>;
    expect(list.map((f) => f.id).sort()).toEqual([
      'broken_link:project:links',
      'same_topic:project:utc-a,utc-b',
    ]);
    for (const f of list)
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'kind', 'scope', 'noteIds', 'detail']));

    const planned = await memdesk(['merge', 'plan', '--ids', 'utc-b,utc-a']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    expect(plan).toMatchObject({
      keepId: 'utc-a',
      draft: { summary: 'Log timestamps are in UTC', tags: ['logging'] },
    });
    expect(Object.keys(plan.basis).sort()).toEqual(['utc-a', 'utc-b']);

    plan.draft.body = 'All logs use UTC, ISO 8601.\n';
    const planFile = path.join(sb.root, 'plan.json');
    await fs.writeFile(planFile, JSON.stringify(plan));
    const applied = await memdesk(['merge', 'apply', '--plan-file', planFile]);
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({
      keptId: 'utc-a',
      deletedIds: ['utc-b'],
      repointed: [{ id: 'links', links: 1 }],
    });
    expect(await sb.raw('project', 'utc-a')).toContain('All logs use UTC, ISO 8601.');
    expect(await sb.raw('project', 'links')).toContain('[[utc-a]]');

    // Applying the same plan again is refused: the notes changed since it was planned.
    const again = await memdesk(['merge', 'apply', '--plan-file', planFile]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toMatchObject({ code: 'conflict' });
    expect(again.stderr).toMatch(/changed since the merge was planned: utc-a.*no longer exist: utc-b/);

    const dismissed = await memdesk(['dismiss', 'broken_link:project:links']);
    expect(dismissed.code).toBe(0);
    expect(JSON.parse((await memdesk(['findings'])).stdout).findings).toEqual([]);
  });

  it('reports bad input with a message and exit codes', async () => {
    sb = await sandbox();
    await sb.put('project', { id: 'a', summary: 'A' });
    const noIds = await memdesk(['merge', 'plan']);
    expect(noIds.code).toBe(2);
    expect(noIds.stderr).toMatch(/needs --ids/);
    const one = await memdesk(['merge', 'plan', '--ids', 'a']);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/at least 2 notes/);
    const badFile = path.join(sb.root, 'bad.json');
    await fs.writeFile(badFile, '{"keepId": 3}');
    const bad = await memdesk(['merge', 'apply', '--plan-file', badFile]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('invalid_input');
    const unknown = await memdesk(['dismiss', 'same_topic:project:x,y']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no current finding/);
  });

  it('model set reads the key from stdin into a 0600 file; merge plan --draft model uses the stand-in for the external model', async () => {
    sb = await sandbox();
    model = await startStandInModel();
    model.respond({
      kind: 'content',
      content: JSON.stringify({ summary: 'Merged', type: null, tags: ['x'], body: 'Merged body.' }),
    });
    const t = sb.clock.t;
    await sb.put('project', { id: 'p1', summary: 'Use pnpm for packages', createdAt: t - DAY });
    await sb.put('project', { id: 'p2', summary: 'Packages: use pnpm', createdAt: t });

    const status = await memdesk(['model']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/No model is configured/),
    });

    const set = await memdesk(
      ['model', 'set', '--base-url', model.baseUrl, '--model', 'stand-in', '--api-key-stdin'],
      'sk-cli-standin-key-0123456789abcd\n',
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ available: true, hasApiKey: true });
    expect((await fs.stat(path.join(sb.home, 'memory-cleanup', 'model-key'))).mode & 0o777).toBe(0o600);

    const planned = await memdesk(['merge', 'plan', '--ids', 'p1,p2', '--draft', 'model']);
    expect(JSON.parse(planned.stdout)).toMatchObject({
      keepId: 'p1',
      draftSource: 'model',
      draft: { summary: 'Merged', body: 'Merged body.' },
    });
    expect(model.requests[0]!.authorization).toBe('Bearer sk-cli-standin-key-0123456789abcd');
  });
});
