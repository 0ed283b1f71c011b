import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { parseNote } from '../../shared/note-format.js';
import { LOCK_FILE_NAME, withDirLock } from '../../electron/memory/dir-lock.js';
import { tempDir, tsxLoader } from './helpers.js';

const worker = new URL('./lock-worker.ts', import.meta.url).pathname;

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, worker, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the per-directory write lock', () => {
  it('holds across processes: four writers on one directory lose nothing and corrupt nothing', async () => {
    const base = await tempDir();
    const dir = path.join(base, 'MEMORY');
    await fs.mkdir(dir);
    const writers = ['alpha', 'beta', 'gamma', 'delta'];
    const per = 10;
    const results = await Promise.all(writers.map((w) => run([dir, w, String(per)])));
    for (const r of results) expect(r.stderr).toBe('');
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(await fs.readFile(path.join(dir, 'counter.txt'), 'utf8')).toBe(String(writers.length * per));
    const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.md'));
    expect(names).toHaveLength(writers.length * per);
    for (const name of names) {
      const parsed = parseNote(await fs.readFile(path.join(dir, name), 'utf8'));
      expect(parsed.ok).toBe(true);
    }
    // No temp files and no lock left behind.
    expect((await fs.readdir(dir)).filter((n) => !n.endsWith('.md'))).toEqual(['counter.txt']);
  }, 120_000);

  it('waits a bounded time for a live owner, then says who holds it and which file to delete', async () => {
    const dir = await tempDir();
    const holder = spawn(process.execPath, ['--import', tsxLoader, worker, dir, 'holder', '0', 'hold'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    let error: unknown;
    try {
      await withDirLock(dir, async () => {}, { timeoutMs: 300 });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('unavailable');
    expect((error as AppError).message).toContain(`locked by process ${holder.pid} on ${os.hostname()}`);
    expect((error as AppError).message).toContain(`delete ${path.join(dir, LOCK_FILE_NAME)}`);
    holder.stdin.end();
    await new Promise((r) => holder.on('exit', r));
    // Released on exit: the lock is free again.
    expect(await withDirLock(dir, async () => 'free', { timeoutMs: 2000 })).toBe('free');
  }, 60_000);

  it('takes over a lock whose owner process is gone', async () => {
    const dir = await tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    await fs.writeFile(
      path.join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: dead, host: os.hostname(), at: 1, token: 'old' }),
    );
    expect(await withDirLock(dir, async () => 'taken over', { timeoutMs: 2000 })).toBe('taken over');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('serialises writers within one process', async () => {
    const dir = await tempDir();
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((k) =>
        withDirLock(dir, async () => {
          order.push(`${k}+`);
          await new Promise((r) => setImmediate(r));
          order.push(`${k}-`);
        }),
      ),
    );
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
  });
});
