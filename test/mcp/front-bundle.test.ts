import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * What the bundled `memdesk` loads before `mcp` answers initialize: the entry and the front, one
 * file built apart (scripts/build-cli.ts), which imports nothing but a few of Node's own modules —
 * not the CLI's file (read and compiled at every start) and not node:crypto (~5 ms of CPU to load;
 * the prompt snapshot is found without a hash function).
 */
let tmp: string | undefined;
afterAll(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** The specifiers a minified ESM file imports, statically or with import(). */
function importsOf(code: string): string[] {
  const found = [...code.matchAll(/\b(?:from|import)\s*\(?\s*"([\w@:./-]+)"/g)].map((m) => m[1]!);
  return [...new Set(found)].sort();
}

describe('the bundled MCP front', { timeout: 120_000 }, () => {
  it('is one file the entry imports, loading only node:fs, path, stream and os', async () => {
    tmp = await tempDir('front-bundle');
    const entry = await buildCliBundle(path.join(tmp, 'cli'));
    const front = await fs.readFile(path.join(path.dirname(entry), 'mcp-first.js'), 'utf8');
    expect(importsOf(front)).toEqual(['node:fs', 'node:os', 'node:path', 'node:stream']);
    // The bin imports its first steps and the loader of the rest of the CLI, each a file of its
    // own (the rest is loaded after the front's answer), and the Node modules its warm check uses.
    expect(importsOf(await fs.readFile(entry, 'utf8'))).toEqual([
      './load-cli.js',
      './mcp-first.js',
      './warm-first.js',
      'node:fs',
      'node:os',
      'node:path',
    ]);
  });
});
