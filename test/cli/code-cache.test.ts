import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../memory/helpers.js';
import { runProcess, TSX_LOADER } from '../support/memdesk-cli.js';

const codeCache = new URL('../../electron/transports/cli/code-cache.ts', import.meta.url).href;

/** A CommonJS file as the bundle is one: it requires Node's modules (also lazily) and reads __filename. */
const MODULE = `const path = require('node:path');
exports.name = path.basename(__filename);
exports.twice = (n) => n * 2;
exports.platform = () => Promise.resolve().then(() => require('node:os').platform());
`;

/**
 * One cold process (V8 keeps compiled scripts per process: a second load in this one would not
 * read the cache at all) loading `file` with runWithCodeCache and saving the cache after the run.
 */
async function load(dir: string, file: string, cacheFile: string | null) {
  const script = `import { runWithCodeCache } from ${JSON.stringify(codeCache)};
const m = runWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheFile)});
const answer = { name: m.exports.name, twice: m.exports.twice(21), platform: await m.exports.platform(), cacheUsed: m.cacheUsed };
console.log(JSON.stringify({ ...answer, saved: m.saveCodeCache() }));`;
  const run = await runProcess(
    [process.execPath, '--import', TSX_LOADER, '--input-type=module', '-e', script],
    {
      cwd: dir,
    },
  );
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as {
    name: string;
    twice: number;
    platform: string;
    cacheUsed: boolean;
    saved: boolean;
  };
}

describe('the CLI file run from V8’s code cache', { timeout: 60_000 }, () => {
  it('compiles from source and saves the cache the first time, then starts from it', async () => {
    const dir = await tempDir('code-cache');
    const file = path.join(dir, 'mod.cjs');
    await fs.writeFile(file, MODULE);
    const cacheFile = path.join(dir, 'memory-cache', 'cli-code', 'mod.bin'); // its folder does not exist yet
    const answers = { name: 'mod.cjs', twice: 42, platform: os.platform() };
    expect(await load(dir, file, cacheFile)).toEqual({ ...answers, cacheUsed: false, saved: true });
    const saved = await fs.stat(cacheFile);
    expect(saved.size).toBeGreaterThan(0);
    expect(await load(dir, file, cacheFile)).toEqual({ ...answers, cacheUsed: true, saved: false });
    // A used cache is left as it was; no temporary file is left beside it.
    expect((await fs.stat(cacheFile)).mtimeMs).toBe(saved.mtimeMs);
    expect(await fs.readdir(path.dirname(cacheFile))).toEqual(['mod.bin']);
  });

  it('a damaged cache is refused by V8, the file runs from source and the cache is written again', async () => {
    const dir = await tempDir('code-cache-damaged');
    const file = path.join(dir, 'mod.cjs');
    await fs.writeFile(file, MODULE);
    const cacheFile = path.join(dir, 'mod.bin');
    await load(dir, file, cacheFile);
    const good = await fs.readFile(cacheFile);
    for (const damaged of [
      Buffer.from('not a code cache'),
      good.subarray(0, good.length >> 1),
      Buffer.alloc(0),
    ]) {
      await fs.writeFile(cacheFile, damaged);
      expect(await load(dir, file, cacheFile)).toMatchObject({ twice: 42, cacheUsed: false, saved: true });
      expect(await load(dir, file, cacheFile)).toMatchObject({ twice: 42, cacheUsed: true });
    }
  });

  it('where the cache cannot be written, or none is asked for, the file still runs and nothing is left behind', async () => {
    const dir = await tempDir('code-cache-unwritable');
    const file = path.join(dir, 'mod.cjs');
    await fs.writeFile(file, MODULE);
    // The cache's folder would be inside a regular file: mkdir fails (ENOTDIR / EEXIST).
    await fs.writeFile(path.join(dir, 'blocker'), 'a file, not a folder');
    const cacheFile = path.join(dir, 'blocker', 'cli-code', 'mod.bin');
    expect(await load(dir, file, cacheFile)).toMatchObject({ twice: 42, cacheUsed: false, saved: false });
    expect(await load(dir, file, null)).toMatchObject({ twice: 42, cacheUsed: false, saved: false });
    expect((await fs.readdir(dir)).sort()).toEqual(['blocker', 'mod.cjs']);
  });
});
