import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';
import { homeOf, parseGlobals } from './globals.js';
import type { LoadedCli } from './load-cli.js';

/** The CLI's CommonJS file beside the bin, named after its content hash (set by scripts/build-cli.ts). */
declare const MEMDESK_CLI_CORE: string;

/**
 * load-cli.ts in the bundle: runs the CLI's one CommonJS file (run.ts and all it imports) with V8's
 * code cache, kept per machine under the home's memory-cache/ and named after the file and the
 * V8 that compiled it (Node and Electron sharing a home do not overwrite each other's cache).
 */
export async function loadCli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<LoadedCli> {
  const file = fileURLToPath(new URL(`./${MEMDESK_CLI_CORE}`, import.meta.url));
  const cacheFile = codeCacheFile(argv, cwd, env);
  const module = runWithCodeCache<Pick<LoadedCli, 'runCli'>>(file, cacheFile);
  return {
    runCli: module.exports.runCli,
    settle: () => {
      if (cacheFile !== null && module.saveCodeCache()) forgetEarlierBuilds(cacheFile);
    },
  };
}

/**
 * Each build leaves its cache behind: once this build's is written, the caches of other builds for
 * the same V8 go, all but the newest KEPT_OTHER_BUILDS (two installs of different versions sharing a
 * home keep theirs rather than removing each other's at every start).
 */
function forgetEarlierBuilds(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const ours = path.basename(cacheFile);
  const sameV8 = ours.slice(ours.indexOf('-v8-'));
  try {
    const others = readdirSync(dir)
      .filter((name) => name !== ours && name.startsWith(CORE_PREFIX) && name.endsWith(sameV8))
      .map((name) => ({ file: path.join(dir, name), mtimeMs: statSync(path.join(dir, name)).mtimeMs }))
      .sort((x, y) => y.mtimeMs - x.mtimeMs);
    for (const { file } of others.slice(KEPT_OTHER_BUILDS)) rmSync(file, { force: true });
  } catch {
    // another process pruned it first, or the folder is not ours to change: harmless
  }
}

const KEPT_OTHER_BUILDS = 2;

/** How the CLI's CommonJS file is named: this, its content hash, `.cjs` (scripts/build-cli.ts). */
export const CORE_PREFIX = 'memdesk-core-';

function codeCacheFile(argv: string[], cwd: string, env: Record<string, string | undefined>): string | null {
  let home: string;
  try {
    home = homeOf(parseGlobals(argv), cwd, env);
  } catch {
    return null; // a usage error: run.ts says it; nothing worth caching
  }
  const name = `${path.basename(MEMDESK_CLI_CORE, '.cjs')}-v8-${process.versions.v8}-${process.arch}.bin`;
  return path.join(home, 'memory-cache', 'cli-code', name);
}
