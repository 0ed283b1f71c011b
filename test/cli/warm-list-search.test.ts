import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { cli, hookLog, withServer, useCliBundle, writeQuokkaNote, type Place, type Run } from './warm-fixture.js';

/**
 * `memdesk list` and `memdesk search` answered by a running `memdesk mcp` (docs/agents.md "Warm
 * answers"), and a warm server following config.json edits: every answer byte-identical to the
 * cold run of the same command on the same files.
 */
useCliBundle();

/** The same command warm (the server's advertisement found) and cold (another advertisement directory). */
async function warmAndCold(p: Place, args: string[]): Promise<void> {
  const w = await cli(p, args);
  const c = await cli(p, args, { runtime: path.join(p.base, 'no-server') });
  expect(w.warm, `${args.join(' ')}: ${w.stderr}`).toBe(true);
  expect(c.warm, args.join(' ')).toBe(false);
  expect({ code: w.code, stdout: w.stdout, stderr: w.stderr }, args.join(' ')).toEqual({
    code: c.code,
    stdout: c.stdout,
    stderr: c.stderr,
  });
}

/**
 * The first answer after a config edit: warm once the server has opened the project again with the
 * new config (it looks every second and before each answer; on a loaded machine opening can take
 * longer than a client waits, and that client answers cold — the same output).
 */
async function warmAfterEdit(p: Place, args: string[]): Promise<Run> {
  let r = await cli(p, args);
  for (let tries = 1; !r.warm && tries < 5; tries++) r = await cli(p, args);
  expect(r.warm, await hookLog(p)).toBe(true);
  return r;
}

describe('warm list and search', () => {
  it('answer exactly as the cold path does, flags and mistakes included, and see edits on disk', async () => {
    await withServer('list-search', 40, async (p) => {
      const invocations = [
        ['list'],
        ['--json', 'list'],
        ['list', '--scope', 'user'],
        ['list', '--scope=project'],
        ['list', '--scope', 'nowhere'],
        ['--json', 'list', 'extra'],
        ['search', 'deploy release'],
        ['--json', 'search', 'postgres index', '--limit', '3'],
        ['search', 'redis cache', '--scope', 'user', '--limit=5'],
        ['search', 'zebra xylophone'],
        ['search', '--limit', '0', 'deploy'],
        ['search'],
      ];
      for (const args of invocations) await warmAndCold(p, args);

      const { file, note } = await writeQuokkaNote(p);
      const added = await cli(p, ['list']);
      expect(added.warm).toBe(true);
      expect(added.stdout.split('\n')[0]).toMatch(/^quokka-habitat {2}\[project\] {2}Quokka habitat survey/);
      await warmAndCold(p, ['search', 'quokka survey']);
      await fs.writeFile(
        file,
        serializeNote({ ...note, summary: 'Wombat burrow survey', body: 'Wombats.\n' }),
      );
      const edited = await cli(p, ['search', 'wombat']);
      expect(edited.warm).toBe(true);
      expect(edited.stdout).toContain('quokka-habitat  [project]  Wombat burrow survey');
      await fs.rm(file);
      const removed = await cli(p, ['search', 'wombat']);
      expect(removed.warm).toBe(true);
      expect(removed.stdout).toBe('no matching notes\n');
      await warmAndCold(p, ['list']);
    });
  }, 600_000);

  it('runs `search --stdin` cold: its lines are answered as they come', async () => {
    await withServer('search-stdin', 10, async (p) => {
      const w = await cli(p, ['search', '--stdin'], { stdin: 'deploy\nredis\n' });
      expect(w.warm).toBe(false);
      expect(w.stdout.trim().split('\n')).toHaveLength(2);
    });
  }, 300_000);

  it('keeps answering warm after config.json edits, as configured now', async () => {
    await withServer('config', 40, async (p) => {
      const recall = ['recall', 'deploy release checklist staging rollback database migration'];
      await warmAndCold(p, recall);
      await warmAndCold(p, ['list']);
      // The user's config: one note per recall.
      await fs.mkdir(p.home, { recursive: true });
      await fs.writeFile(
        path.join(p.home, 'config.json'),
        JSON.stringify({ memory: { recall: { perTurn: 1 } } }),
      );
      const one = await warmAfterEdit(p, ['--json', ...recall]);
      expect((JSON.parse(one.stdout) as { notes: unknown[] }).notes).toHaveLength(1);
      await warmAndCold(p, recall);
      // The project's config moves its notes to another folder: list shows that folder's one note.
      const other = path.join(p.root, 'notes-elsewhere');
      await fs.mkdir(other, { recursive: true });
      await fs.writeFile(
        path.join(other, 'moved.md'),
        serializeNote({
          id: 'moved',
          summary: 'Notes kept elsewhere',
          tags: [],
          createdAt: 1_790_000_000_000,
          updatedAt: 1_790_000_000_000,
          body: 'Elsewhere.\n',
        }),
      );
      await fs.mkdir(path.join(p.root, '.oharness'), { recursive: true });
      await fs.writeFile(
        path.join(p.root, '.oharness', 'config.json'),
        JSON.stringify({ memory: { dir: 'notes-elsewhere' } }),
      );
      const moved = await warmAfterEdit(p, ['list', '--scope', 'project']);
      expect(moved.stdout).toBe('moved  [project]  Notes kept elsewhere\n');
      await warmAndCold(p, ['list']);
      await warmAndCold(p, ['search', 'elsewhere']);
      // A config that is not JSON: the same warnings as a cold run.
      await fs.writeFile(path.join(p.home, 'config.json'), '{ not json');
      const warned = await warmAfterEdit(p, ['list']);
      expect(warned.stderr).toContain('is not valid JSON');
      await warmAndCold(p, ['list']);
      await warmAndCold(p, recall);
    });
  }, 600_000);
});
