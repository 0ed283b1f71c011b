import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { fixture } from '../memory/helpers.js';
import {
  CLI_SOURCE_ENTRY as sourceEntry,
  memdeskInProcess,
  runProcess,
  TSX_LOADER as tsxLoader,
} from '../support/memdesk-cli.js';

const moduleLog = new URL('./module-log/register.mjs', import.meta.url).href;

/**
 * `memdesk remember` into a scope at memory.maxNotes is refused from the directory's listing, before
 * a single note is loaded (issue 14): the same refusal, in the same words, as the notes service gives
 * when the notes are loaded (the MCP server, the app), counting held files as the store does.
 */
async function fill(dir: string, count: number, prefix: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    await fs.writeFile(
      path.join(dir, `${prefix}-${i}.md`),
      serializeNote({
        id: `${prefix}-${i}`,
        summary: `note ${i}`,
        tags: [],
        createdAt: 1,
        updatedAt: 1,
        body: 'b\n',
      }),
    );
}

describe('memdesk remember into a full scope', () => {
  it('is refused before any note is loaded, in the words the loaded store uses', async () => {
    const fx = await fixture();
    await fs.mkdir(fx.home, { recursive: true });
    await fs.writeFile(path.join(fx.home, 'config.json'), JSON.stringify({ memory: { maxNotes: 4 } }));
    await fill(fx.userDir, 3, 'u');
    // A file the store holds without loading it still counts (it is a `*.md` file on disk).
    await fs.writeFile(path.join(fx.userDir, 'broken.md'), '{ not json');
    const g = ['--home', fx.home, '--project', fx.root];
    const args = [...g, 'remember', '--scope', 'user', '--summary', 'One more', '--body', 'x'];

    const early = await runProcess(
      [process.execPath, '--import', tsxLoader, '--import', moduleLog, sourceEntry, ...args],
      {
        cwd: fx.root,
      },
    );
    expect(early.code).toBe(1);
    const message =
      'the user scope already holds 4 notes (memory.maxNotes is 4); remove some before adding new ones';
    expect(early.stderr).toContain(`memdesk: ${message}`);
    const modules = early.stderr.split('\n').filter((l) => l.startsWith('module-log '));
    expect(modules.length).toBeGreaterThan(10);
    for (const notLoaded of [
      '/electron/memory/note-store.ts',
      '/electron/memory/index-cache.ts',
      '@secretlint/',
    ])
      expect(
        modules.filter((m) => m.includes(notLoaded)),
        notLoaded,
      ).toEqual([]);
    expect(await fs.readdir(fx.userDir)).toHaveLength(4);

    // The loaded notes service (what the MCP server and the app call) refuses in the same words.
    const { notes } = await fx.open({ env: {} });
    await expect(notes.remember({ summary: 'One more', body: 'x', scope: 'user' })).rejects.toThrow(message);

    // --json carries the same code and message.
    const json = await memdeskInProcess(['--json', ...args], { cwd: fx.root });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'limit_exceeded', message } });
  });

  it('takes the scope from the type and the limit from the project config; a scope with room still writes', async () => {
    const fx = await fixture();
    await fs.mkdir(path.join(fx.root, '.oharness'), { recursive: true });
    await fs.writeFile(
      path.join(fx.root, '.oharness', 'config.json'),
      JSON.stringify({ memory: { maxNotes: 2 } }),
    );
    await fill(fx.memoryDir, 2, 'p');
    const g = ['--home', fx.home, '--project', fx.root];
    // A `project` note goes to the project scope by default: full.
    const refused = await memdeskInProcess(
      [...g, 'remember', '--type', 'project', '--summary', 'Decision', '--body', 'x'],
      {
        cwd: fx.root,
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the project scope already holds 2 notes (memory.maxNotes is 2)');
    // A `user` note goes to the user scope, which has room.
    const written = await memdeskInProcess(
      [...g, 'remember', '--type', 'user', '--summary', 'Prefers terse answers', '--body', 'x'],
      {
        cwd: fx.root,
      },
    );
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/^remembered \S+ \(user\)/);
    // The project's limit is not the user scope's: its own notes past 2 are still written.
    await fill(fx.userDir, 3, 'u');
    const userNote = await memdeskInProcess(
      [...g, 'remember', '--scope', 'user', '--summary', 'Mine', '--body', 'x'],
      {
        cwd: fx.root,
      },
    );
    expect(userNote.code, userNote.stderr).toBe(0);
    // An unknown type is the API's to name, not a limit.
    const badType = await memdeskInProcess(
      [...g, 'remember', '--type', 'nonsense', '--summary', 'S', '--body', 'x'],
      {
        cwd: fx.root,
      },
    );
    expect(badType.code).toBe(1);
    expect(badType.stderr).not.toContain('already holds');
  });
});
