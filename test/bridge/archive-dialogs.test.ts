import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import type { OpenProject } from '../../electron/app/open-project.js';
import { defaultSeedDirs, generatedNotes, seedGeneratedNotes } from '../../electron/demo/seed.js';
import { handleArchiveRequest, type ArchiveDialogs } from '../../electron/transports/ipc/archive-dialogs.js';
import type { IpcInvokeEventLike } from '../../electron/transports/ipc/bind.js';

/**
 * The desktop's export / import (main side, plain Node): the page names a scope, the person picks
 * the file in the system dialog, main runs agents.export / agents.import on the real core and temp
 * directories. The system dialog is the one external part: here it answers what the test says.
 */
let tmp: string;
let opened: OpenProject;
let dirs: ReturnType<typeof defaultSeedDirs>;
const trusted: IpcInvokeEventLike = { senderFrame: { url: 'app://bundle/index.html' }, sender: { id: 1 } };
const foreign: IpcInvokeEventLike = { senderFrame: { url: 'https://example.com/' }, sender: { id: 2 } };

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-archive-dialogs-'));
  dirs = defaultSeedDirs(path.join(tmp, 'home'), path.join(tmp, 'project'));
  await seedGeneratedNotes(dirs.projectMemoryDir, generatedNotes(12, 'project'));
  opened = await createAppRoot({ home: path.join(tmp, 'home'), env: {} }).open({
    projectRoot: path.join(tmp, 'project'),
    cwd: path.join(tmp, 'project'),
  });
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** The system dialog answering `answer` (null: the person cancelled), recording what it was asked. */
function systemDialogAnswering(answer: string | null) {
  const asked: string[] = [];
  const dialogs: ArchiveDialogs = {
    chooseSaveFile: async (name) => {
      asked.push(`save ${name}`);
      return answer;
    },
    chooseZipFile: async () => {
      asked.push('open');
      return answer;
    },
  };
  return { asked, dialogs };
}

const deps = (dialogs: ArchiveDialogs) => ({
  dialogs,
  handlers: () => opened.handlers,
  isTrustedSender: (e: IpcInvokeEventLike) => e.senderFrame?.url.startsWith('app://bundle/') ?? false,
  now: () => Date.UTC(2026, 10, 30),
});

describe('export and import through the system file dialog (main side)', () => {
  it('export: offers a dated name, writes the chosen file (.zip added), and says how many notes', async () => {
    const { asked, dialogs } = systemDialogAnswering(path.join(tmp, 'out', 'my notes'));
    await fs.mkdir(path.join(tmp, 'out'));
    const reply = await handleArchiveRequest(deps(dialogs), trusted, { op: 'export', scope: 'project' });
    expect(asked).toEqual(['save memory-desk-project-2026-11-30.zip']);
    expect(reply).toEqual({
      ok: true,
      result: { op: 'export', file: path.join(tmp, 'out', 'my notes.zip'), notes: 12 },
    });
    expect((await fs.stat(path.join(tmp, 'out', 'my notes.zip'))).size).toBeGreaterThan(0);
  });

  it('cancelled dialogs do nothing', async () => {
    const { dialogs } = systemDialogAnswering(null);
    const before = await fs.readdir(dirs.userMemoryDir).catch(() => []);
    expect(await handleArchiveRequest(deps(dialogs), trusted, { op: 'export', scope: 'user' })).toEqual({
      ok: true,
      result: { op: 'cancelled' },
    });
    expect(
      await handleArchiveRequest(deps(dialogs), trusted, { op: 'import', scope: 'user', onCollision: 'skip' }),
    ).toEqual({ ok: true, result: { op: 'cancelled' } });
    expect(await fs.readdir(dirs.userMemoryDir).catch(() => [])).toEqual(before);
  });

  it('import: the chosen zip goes into the scope, byte for byte', async () => {
    const { dialogs } = systemDialogAnswering(path.join(tmp, 'out', 'my notes.zip'));
    const reply = await handleArchiveRequest(deps(dialogs), trusted, {
      op: 'import',
      scope: 'user',
      onCollision: 'skip',
    });
    expect(reply.ok).toBe(true);
    const outcome = (reply as { result: { op: string; result: { imported: unknown[] } } }).result;
    expect(outcome.op).toBe('import');
    expect(outcome.result.imported).toHaveLength(12);
    for (const name of await fs.readdir(dirs.projectMemoryDir))
      expect(await fs.readFile(path.join(dirs.userMemoryDir, name), 'utf8')).toBe(
        await fs.readFile(path.join(dirs.projectMemoryDir, name), 'utf8'),
      );
  });

  it('a page cannot name the path, and frames other than the renderer are refused — no dialog opens', async () => {
    const { asked, dialogs } = systemDialogAnswering(path.join(tmp, 'evil.zip'));
    const withPath = await handleArchiveRequest(deps(dialogs), trusted, {
      op: 'export',
      scope: 'project',
      out: path.join(os.homedir(), '.bashrc'),
    });
    expect(withPath).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const fromElsewhere = await handleArchiveRequest(deps(dialogs), foreign, { op: 'export', scope: 'project' });
    expect(fromElsewhere).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(asked).toEqual([]);
    await expect(fs.stat(path.join(tmp, 'evil.zip'))).rejects.toThrow();
  });

  it('a dialog answer that is not an absolute path is refused, nothing written', async () => {
    const { dialogs } = systemDialogAnswering('relative.zip');
    const reply = await handleArchiveRequest(deps(dialogs), trusted, { op: 'export', scope: 'project' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'refused' } });
    await expect(fs.stat(path.resolve('relative.zip'))).rejects.toThrow();
  });

  it('export never replaces a file the person chose (the error says so)', async () => {
    const { dialogs } = systemDialogAnswering(path.join(tmp, 'out', 'my notes.zip'));
    const before = await fs.readFile(path.join(tmp, 'out', 'my notes.zip'));
    const reply = await handleArchiveRequest(deps(dialogs), trusted, { op: 'export', scope: 'user' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'refused', message: expect.stringMatching(/already exists/) } });
    expect(await fs.readFile(path.join(tmp, 'out', 'my notes.zip'))).toEqual(before);
  });
});
