import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';
import { homeOf, parseGlobals } from './globals.js';
import type { LoadedCli } from './load-cli.js';
import { USAGE_EXIT_CODE } from './types.js';

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
    // A usage error (a mistyped command) ran little of the CLI: no cache is kept under its name.
    settle: (exitCode) => {
      if (cacheFile !== null && exitCode !== USAGE_EXIT_CODE && module.saveCodeCache())
        forgetEarlierBuilds(cacheFile);
    },
  };
}

/**
 * Each build leaves its caches behind: once one of this build's is written, the caches of other
 * builds for the same V8 go, all but those of the newest KEPT_OTHER_BUILDS builds (two installs of
 * different versions sharing a home keep theirs rather than removing each other's at every start).
 */
function forgetEarlierBuilds(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const name = parseCacheName(path.basename(cacheFile));
  if (!name) return;
  try {
    const newest = new Map<string, number>(); // build → its newest cache's mtime
    const files: Array<{ file: string; build: string }> = [];
    for (const entry of readdirSync(dir)) {
      const other = parseCacheName(entry);
      if (!other || other.build === name.build || other.v8 !== name.v8) continue;
      const file = path.join(dir, entry);
      newest.set(other.build, Math.max(newest.get(other.build) ?? 0, statSync(file).mtimeMs));
      files.push({ file, build: other.build });
    }
    const kept = new Set(
      [...newest]
        .sort((x, y) => y[1] - x[1])
        .slice(0, KEPT_OTHER_BUILDS)
        .map(([b]) => b),
    );
    for (const { file, build } of files) if (!kept.has(build)) rmSync(file, { force: true });
  } catch {
    // another process pruned it first, or the folder is not ours to change: harmless
  }
}

const KEPT_OTHER_BUILDS = 2;

/** How the CLI's CommonJS file is named: this, its content hash, `.cjs` (scripts/build-cli.ts). */
export const CORE_PREFIX = 'memdesk-core-';

/**
 * A cache per command (`recall`, `hook`, `list`…): V8 keeps the code the run compiled, so a cache
 * written by `--help` or `setup` would leave every later recall compiling its own functions again.
 */
function codeCacheFile(argv: string[], cwd: string, env: Record<string, string | undefined>): string | null {
  let home: string;
  let command: string;
  try {
    const globals = parseGlobals(argv);
    home = homeOf(globals, cwd, env);
    command = /^[a-z][a-z-]{0,31}$/.test(globals.rest[0] ?? '') ? globals.rest[0]! : 'other';
  } catch {
    return null; // a usage error: run.ts says it; nothing worth caching
  }
  const build = path.basename(MEMDESK_CLI_CORE, '.cjs').slice(CORE_PREFIX.length);
  const name = `${CORE_PREFIX}${build}-${command}-v8-${process.versions.v8}-${process.arch}.bin`;
  return path.join(home, 'memory-cache', 'cli-code', name);
}

/** `memdesk-core-<build>-<command>-v8-<version>-<arch>.bin` → its build and V8 (with the arch). */
function parseCacheName(name: string): { build: string; v8: string } | null {
  const m = /^memdesk-core-([0-9a-f]+)-[a-z][a-z-]*-v8-(.+)\.bin$/.exec(name);
  return m ? { build: m[1]!, v8: m[2]! } : null;
}
