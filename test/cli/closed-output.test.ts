import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { fixture } from '../memory/helpers.js';
import { CLI_SOURCE_ENTRY, TSX_LOADER } from '../support/memdesk-cli.js';

/**
 * The real CLI in a child process whose reader goes away: after its first chunk of output
 * (`memdesk list | head -1`), or before it writes anything. Its exit code and what it said on stderr.
 */
function withReaderGone(
  args: string[],
  cwd: string,
  when: 'after-first-chunk' | 'at-once',
): Promise<{ code: number | null; stderr: string; read: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_SOURCE_ENTRY, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let read = 0;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    if (when === 'at-once') child.stdout.destroy();
    else
      child.stdout.once('data', (d: Buffer) => {
        read = d.length;
        child.stdout.destroy();
      });
    child.on('exit', (code) => resolve({ code, stderr, read }));
  });
}

describe('memdesk with its output closed early', () => {
  it('a reader that goes away (list | head) ends nothing early: no EPIPE crash, the exit code is the command’s, a note is still written', async () => {
    const fx = await fixture();
    const g = ['--home', fx.home, '--project', fx.root];
    // ~1 MB of `list --json` (far past a pipe's buffer): most of it is written after the reader left.
    await fs.mkdir(fx.memoryDir, { recursive: true });
    for (let i = 0; i < 1500; i++)
      await fs.writeFile(
        path.join(fx.memoryDir, `n${i}.md`),
        serializeNote({
          id: `n${i}`,
          summary: `Release checklist step ${i}: run the migrations, then the smoke tests, then tag the build`,
          tags: ['release', 'checklist'],
          body: 'Steps.',
          createdAt: 1,
          updatedAt: 1,
        }),
      );
    const listed = await withReaderGone([...g, '--json', 'list'], fx.root, 'after-first-chunk');
    expect(listed.read).toBeGreaterThan(0);
    expect(listed.read).toBeLessThan(1_000_000);
    expect([listed.code, listed.stderr]).toEqual([0, '']);

    const remembered = await withReaderGone(
      [...g, 'remember', '--summary', 'Tag the build after the smoke tests'],
      fx.root,
      'at-once',
    );
    expect([remembered.code, remembered.stderr]).toEqual([0, '']);
    const files = await fs.readdir(fx.memoryDir);
    const written = files.filter((f) => f.startsWith('tag-the-build'));
    expect(written).toHaveLength(1);
    await expect(fs.readFile(path.join(fx.memoryDir, written[0]!), 'utf8')).resolves.toContain(
      'Tag the build after the smoke tests',
    );
  }, 60_000);
});
