import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import type { MemoryCore } from '../../electron/memory/types.js';
import { MAX_NOTE_ID_BYTES, noteIdProblem } from '../../shared/note-id.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: string;
let core: MemoryCore | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  await fs.rm(tmp, { recursive: true, force: true });
});

async function setup(): Promise<{ home: string; root: string; outside: string }> {
  tmp = await tempDir('sec');
  const home = path.join(tmp, 'home');
  const root = path.join(tmp, 'project');
  const outside = path.join(tmp, 'outside');
  await Promise.all([home, root, outside].map((d) => fs.mkdir(d, { recursive: true })));
  return { home, root, outside };
}

async function open(home: string, root: string): Promise<MemoryCore> {
  core = await createMemoryCore({ home, projectRoot: root, env: {}, now: () => 1_780_000_000_000 });
  return core;
}

describe("a project's notes directory stays inside the project", () => {
  it('a MEMORY that is a symbolic link is refused with a warning; nothing is written through it', async () => {
    const { home, root, outside } = await setup();
    await fs.symlink(outside, path.join(root, 'MEMORY'));
    const c = await open(home, root);
    expect(c.store('project')).toBeNull();
    expect(c.warnings()).toContainEqual(
      expect.objectContaining({
        code: 'project_dir_refused',
        message: expect.stringMatching(/MEMORY is a symbolic link/),
      }),
    );
    await expect(
      createNotesService(c).remember({ summary: 'Project fact', body: 'x\n', scope: 'project' }),
    ).rejects.toMatchObject({ code: 'unavailable' });
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it.each([
    ['absolute', (outside: string) => outside],
    ['escaping', () => '../outside'],
  ])(
    'an %s memory.dir is refused with a warning naming the key; notes stay in MEMORY/',
    async (_kind, dirFor) => {
      const { home, root, outside } = await setup();
      await fs.mkdir(path.join(root, '.oharness'));
      await fs.writeFile(
        path.join(root, '.oharness', 'config.json'),
        JSON.stringify({ memory: { dir: dirFor(outside) } }),
      );
      const c = await open(home, root);
      expect(c.warnings()).toContainEqual(
        expect.objectContaining({
          code: 'invalid_config',
          message: expect.stringMatching(/^memory\.dir ".*" is not a directory inside the project/),
        }),
      );
      await c.registerProject();
      const stored = await createNotesService(c).remember({
        summary: 'Project fact',
        body: 'x\n',
        scope: 'project',
      });
      expect(stored.note.path).toBe(path.join(root, 'MEMORY', `${stored.note.id}.md`));
      expect(await fs.readdir(outside)).toEqual([]);
    },
  );
});

describe('note ids fit the file system', () => {
  it('a 100-character CJK id is refused at validation with a clear message, not an io_error', async () => {
    const { home, root } = await setup();
    const c = await open(home, root);
    const notes = createNotesService(c);
    const long = '记'.repeat(100);
    expect(noteIdProblem(long)).toMatch(/300 bytes in UTF-8, over 192/);
    await expect(
      notes.remember({ id: long, summary: 'Long id', body: 'x\n', scope: 'user' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/bytes in UTF-8/),
    });
    // The longest id allowed is written, backed up and restored (its temp and backup names fit too).
    const longest = '记'.repeat(MAX_NOTE_ID_BYTES / 3);
    const ok = await notes.remember({ id: longest, summary: 'Longest id', body: 'x\n', scope: 'user' });
    expect(ok.note.id).toBe(longest);
    const { backupId } = await notes.forget({ id: longest, scope: 'user' });
    await c.restoreBackup(backupId);
    // A long CJK summary gets a generated id that fits.
    const generated = await notes.remember({ summary: '部署'.repeat(80), body: 'y\n', scope: 'user' });
    expect(noteIdProblem(generated.note.id)).toBeNull();
  });
});
