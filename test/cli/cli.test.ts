import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/transports/cli/run.js';
import { fixture, snapshot } from '../memory/helpers.js';
import { memdesk, type Run } from './child.js';

/**
 * The same CLI code in this process (streams instead of a child): spawning costs seconds per call
 * on a loaded machine, so the child-process tests cover the entry point and stdio, and the rest of
 * the command matrix runs here.
 */
async function inProcess(
  args: string[],
  opts: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Run> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(opts.stdin ?? '');
  const code = await runCli({
    argv: args,
    stdin,
    stdout,
    stderr,
    env: { HOME: opts.cwd, ...opts.env },
    cwd: opts.cwd,
  });
  return { code, stdout: out, stderr: err };
}

describe('memdesk CLI', () => {
  it('runs the whole note life cycle with --json output shapes', async () => {
    const fx = await fixture();
    const g = ['--home', fx.home, '--project', fx.root, '--json'];
    const cwd = fx.root;

    const help = await memdesk(['--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: memdesk [--home DIR] [--project DIR] [--json] <command>');
    for (const c of [
      'project init',
      'remember',
      'list',
      'show',
      'edit',
      'forget',
      'search',
      'recall',
      'index',
      'backups',
      'restore',
      'info',
    ]) {
      expect(help.stdout).toContain(`  ${c}`);
    }

    const init = await memdesk([...g, 'project', 'init'], { cwd });
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ root: fx.root, memoryDir: fx.memoryDir });

    const rem = await inProcess(
      [
        ...g,
        'remember',
        '--summary',
        'Pricing cards use fills, not borders',
        '--type',
        'feedback',
        '--tags',
        'design, pricing',
        '--id',
        'pricing-fills',
        '--body',
        'See [[pricing-layout]].',
      ],
      { cwd },
    );
    expect(rem.code).toBe(0);
    expect(JSON.parse(rem.stdout)).toEqual({
      id: 'pricing-fills',
      scope: 'project',
      related: [],
      duplicateOf: null,
      danglingLinks: ['pricing-layout'],
    });

    // Body from stdin; user type goes to the user scope.
    const fromStdin = await memdesk(
      [...g, 'remember', '--summary', 'Prefers terse answers', '--type', 'user', '--id', 'terse'],
      { cwd, stdin: 'Short answers, no preamble.\n' },
    );
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ id: 'terse', scope: 'user' });
    expect(await fs.readFile(path.join(fx.userDir, 'terse.md'), 'utf8')).toContain(
      'Short answers, no preamble.\n',
    );

    const layout = await inProcess(
      [
        ...g,
        'remember',
        '--summary',
        'Pricing layout',
        '--id',
        'pricing-layout',
        '--tags',
        'pricing',
        '--body',
        'cards',
      ],
      { cwd },
    );
    expect(JSON.parse(layout.stdout).related.map((r: { id: string }) => r.id)).toContain('pricing-fills');

    const list = JSON.parse((await inProcess([...g, 'list'], { cwd })).stdout);
    expect(list.notes.map((n: { id: string }) => n.id).sort()).toEqual([
      'pricing-fills',
      'pricing-layout',
      'terse',
    ]);
    expect(Object.keys(list.notes[0]).sort()).toEqual(
      ['createdAt', 'hash', 'id', 'scope', 'summary', 'tags', 'updatedAt']
        .concat(list.notes[0].type ? ['type'] : [])
        .sort(),
    );
    expect(list.warnings).toEqual([]);
    const userOnly = JSON.parse((await inProcess([...g, 'list', '--scope', 'user'], { cwd })).stdout);
    expect(userOnly.notes.map((n: { id: string }) => n.id)).toEqual(['terse']);

    const show = JSON.parse((await inProcess([...g, 'show', 'pricing-fills'], { cwd })).stdout);
    expect(show).toMatchObject({
      id: 'pricing-fills',
      body: 'See [[pricing-layout]].',
      links: [{ id: 'pricing-layout', resolved: 'project' }],
      backlinks: [],
    });
    const showLayout = JSON.parse((await inProcess([...g, 'show', 'pricing-layout'], { cwd })).stdout);
    expect(showLayout.backlinks).toEqual([
      { id: 'pricing-fills', scope: 'project', summary: 'Pricing cards use fills, not borders' },
    ]);

    const edit = JSON.parse(
      (await inProcess([...g, 'edit', 'pricing-fills', '--tags', 'design ui', '--type', 'none'], { cwd }))
        .stdout,
    );
    expect(edit.tags).toEqual(['design', 'ui']);
    expect(edit.type).toBeUndefined();

    const search = JSON.parse(
      (await inProcess([...g, 'search', 'pricing cards', '--limit', '5'], { cwd })).stdout,
    );
    expect(search.notes[0]).toMatchObject({ id: 'pricing-fills', scope: 'project' });
    expect(typeof search.notes[0].score).toBe('number');

    const batch = await memdesk([...g, 'search', '--stdin'], { cwd, stdin: 'pricing\n\nterse answers\n' });
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.query)).toEqual(['pricing', 'terse answers']);
    expect(lines[1].notes[0].id).toBe('terse');

    const recall = JSON.parse(
      (await inProcess([...g, 'recall', 'how should the pricing cards look?'], { cwd })).stdout,
    );
    expect(Array.isArray(recall.notes)).toBe(true);
    // Without --json, recall prints the block and then why each note matched.
    const textArgs = g.filter((a) => a !== '--json');
    const recallText = (
      await inProcess([...textArgs, 'recall', 'how should the pricing cards look?'], { cwd })
    ).stdout;
    expect(recallText).toContain('<recalled-memory>');
    expect(recallText).toMatch(/why: summary \d+\.\d\d \([^)]*card/);
    const info = JSON.parse((await inProcess([...g, 'info'], { cwd })).stdout);
    expect(info.counts).toEqual({ project: 2, user: 1 });

    const index = JSON.parse((await inProcess([...g, 'index'], { cwd })).stdout);
    expect(index).toMatchObject({ shown: 3, omitted: 0 });
    expect(index.text).toContain('pricing-fills');

    const forget = JSON.parse((await inProcess([...g, 'forget', 'pricing-fills'], { cwd })).stdout);
    expect(forget).toMatchObject({ id: 'pricing-fills', scope: 'project' });
    const backups = JSON.parse((await inProcess([...g, 'backups'], { cwd })).stdout);
    expect(backups.backups[0]).toMatchObject({
      id: forget.backupId,
      noteId: 'pricing-fills',
      scope: 'project',
      reason: 'forget',
    });
    expect(typeof backups.backups[0].at).toBe('number');
    const restore = JSON.parse((await inProcess([...g, 'restore', forget.backupId], { cwd })).stdout);
    expect(restore).toMatchObject({
      id: 'pricing-fills',
      scope: 'project',
      dir: fx.memoryDir,
      replacedBackupId: null,
    });
    expect(await fs.readdir(fx.memoryDir)).toContain('pricing-fills.md');
  }, 120_000);

  it('errors: exit 1 for refused or invalid input, 2 for usage; one stderr line; a JSON error body with --json', async () => {
    const fx = await fixture();
    const cwd = fx.root;
    const g = ['--home', fx.home, '--project', fx.root];
    const before = await snapshot(fx.root);

    const cred = await memdesk(
      [...g, '--json', 'remember', '--summary', 'deploy', '--body', 'key: AKIAQ3EGRTY5PZ7K2LMN'],
      { cwd },
    );
    expect(cred.code).toBe(1);
    expect(JSON.parse(cred.stdout)).toEqual({
      error: { code: 'refused', message: expect.stringMatching(/an AWS access key id/) },
    });
    expect(cred.stderr.trim().split('\n')).toHaveLength(1);
    expect(cred.stderr).toMatch(/^memdesk: the body looks like it contains an AWS access key id/);

    const badId = await inProcess([...g, 'remember', '--summary', 's', '--id', '../evil', '--body', 'b'], {
      cwd,
    });
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/invalid note id "\.\.\/evil"/);
    expect(badId.stdout).toBe('');

    const badType = await inProcess(
      [...g, '--json', 'remember', '--summary', 's', '--type', 'opinion', '--body', 'b'],
      { cwd },
    );
    expect(badType.code).toBe(1);
    expect(JSON.parse(badType.stdout).error.code).toBe('invalid_input');

    const missing = await inProcess([...g, '--json', 'show', 'nothing-here'], { cwd });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error).toEqual({
      code: 'not_found',
      message: 'no note "nothing-here"',
    });

    const usage = await memdesk([...g, 'remember', '--body', 'no summary'], { cwd });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^memdesk: remember needs --summary \(see: memdesk remember --help\)\n$/);

    const unknown = await inProcess([...g, '--json', 'frobnicate'], { cwd });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { code: 'invalid_input', message: 'unknown command "frobnicate"' },
    });

    const unknownFlag = await inProcess([...g, 'list', '--colour'], { cwd });
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toMatch(/unknown option --colour/);

    expect(await snapshot(fx.root)).toEqual(before);
  }, 120_000);

  it('text output, warnings on stderr, and OHARNESS_HOME as the default home', async () => {
    const fx = await fixture();
    await fs.mkdir(fx.memoryDir, { recursive: true });
    await fs.writeFile(path.join(fx.memoryDir, 'broken.md'), 'not a note');
    const env = { OHARNESS_HOME: fx.home };
    const rem = await inProcess(['remember', '--summary', 'Hello there', '--id', 'hello', '--body', 'b'], {
      cwd: fx.root,
      env,
    });
    expect(rem.code).toBe(0);
    expect(rem.stdout).toBe('remembered hello (project)\n');
    const list = await memdesk(['list'], { cwd: fx.root, env });
    expect(list.stdout).toBe('hello  [project]  Hello there\n');
    expect(list.stderr).toMatch(/^warning: .*broken\.md: missing frontmatter/);
    expect(await fs.readFile(path.join(fx.memoryDir, 'broken.md'), 'utf8')).toBe('not a note');
    expect(await fs.readdir(path.join(fx.home, 'memory', 'user'))).toEqual([]);
  }, 60_000);
});
