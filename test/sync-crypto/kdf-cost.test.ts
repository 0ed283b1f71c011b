import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The lowered scrypt cost for tests (`kdfCostForTests`) is an option of the sync engine that only
 * tests pass: no production composition (the desktop main process, the CLI, the demo, the
 * server) may mention it. The files that define and forward it are the only ones allowed.
 */
const ALLOWED = new Set([
  'electron/sync/sync-engine.ts', // defines it
  'electron/api/handlers/encryption.ts', // reads it from the engine
  'electron/transports/http/web-bridge.ts', // forwards the e2e tests' value
]);

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name))
      out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

describe('kdfCostForTests', () => {
  it('is named by no production file except those that define and forward it', async () => {
    const repo = path.resolve(import.meta.dirname, '../..');
    const mentioning: string[] = [];
    for (const top of ['electron', 'server', 'shared', 'renderer', 'scripts']) {
      const dir = path.join(repo, top);
      if (!(await fs.stat(dir).catch(() => null))) continue;
      for (const file of await sources(dir))
        if ((await fs.readFile(file, 'utf8')).includes('kdfCostForTests'))
          mentioning.push(path.relative(repo, file).split(path.sep).join('/'));
    }
    expect(mentioning.sort()).toEqual([...ALLOWED].sort());
  });
});
