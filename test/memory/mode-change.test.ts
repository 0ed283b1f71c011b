import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { indexCacheFile } from '../../electron/memory/index-cache.js';
import { tempDir } from './helpers.js';

/**
 * A note file whose mode alone changes (chmod 000 by another tool: same size, same mtime) is read
 * again and held as unreadable, not answered from the index cache — sync must neither push it nor
 * write over it. A root process reads any file whatever its mode, so when the tests run as root the
 * reading process runs as an unprivileged user (`setpriv` to nobody, 65534) over a home it owns.
 */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const child = new URL('./open-notes-child.ts', import.meta.url).pathname;
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/** An hour back: the index cache never keeps a file modified in the last 2 s. */
const PAST = new Date(Date.now() - 3_600_000);

interface Opened {
  ids: string[];
  held: Array<{ id: string; reason: string }>;
}

function openNotes(home: string): Promise<Opened> {
  const node = [process.execPath, '--import', tsxLoader, child, home];
  const [cmd, ...argv] = asRoot
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node]
    : node;
  return new Promise((resolve, reject) => {
    const run = spawn(cmd!, argv, { env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: home } });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    run.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    run.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as Opened) : reject(new Error(`exit ${code}: ${stderr}`)),
    );
  });
}

it(
  'a note file made unreadable by a chmod alone (same size and mtime) is held, not answered from the index cache',
  { timeout: 60_000 },
  async () => {
    const home = await tempDir('mode-change');
    const dir = path.join(home, 'memory', 'user');
    await fs.mkdir(dir, { recursive: true });
    for (const id of ['kept', 'locked']) {
      const file = path.join(dir, `${id}.md`);
      await fs.writeFile(
        file,
        serializeNote({ id, summary: id, tags: [], body: `${id} body`, createdAt: 1, updatedAt: 1 }),
      );
      await fs.utimes(file, PAST, PAST);
    }
    if (asRoot)
      for (const e of [home, ...(await fs.readdir(home, { recursive: true })).map((p) => path.join(home, p))])
        await fs.chown(e, NOBODY, NOBODY);

    expect(await openNotes(home)).toEqual({ ids: ['kept', 'locked'], held: [] });
    await fs.access(indexCacheFile(home, 'user', dir)); // the first run saved the index cache

    const locked = path.join(dir, 'locked.md');
    const before = await fs.stat(locked);
    await fs.chmod(locked, 0o000);
    const after = await fs.stat(locked);
    expect([after.mtimeMs, after.size]).toEqual([before.mtimeMs, before.size]);
    expect(await openNotes(home)).toEqual({ ids: ['kept'], held: [{ id: 'locked', reason: 'unreadable' }] });

    await fs.chmod(locked, 0o644);
    expect(await openNotes(home)).toEqual({ ids: ['kept', 'locked'], held: [] });
  },
);
