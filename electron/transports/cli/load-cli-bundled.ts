import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nameHash } from '../../../shared/name-hash.js';
import { runWithCodeCache } from './code-cache.js';
import { CORE_PREFIX } from './core-file.js';
import { homeOf, parseGlobals } from './globals.js';
import type { LoadedCli } from './load-cli.js';

/** The CLI's CommonJS file beside the bin, named after its content hash (set by scripts/build-cli.ts). */
declare const MEMDESK_CLI_CORE: string;
/** This build: the CLI file's content hash, from its name. */
const BUILD = path.basename(MEMDESK_CLI_CORE, '.cjs').slice(CORE_PREFIX.length);

/**
 * load-cli.ts in the bundle: runs the CLI's one CommonJS file (run.ts and all it imports) with V8's
 * code cache, kept per machine under the home's memory-cache/cli-code/, one per command.
 *
 * Inside the desktop app (`<app> --memdesk-cli`, Electron) there is no cache: the app runs only
 * code from its signed app.asar, and bytecode read from the home would be code ASAR integrity
 * does not cover (docs/security.md).
 */
export async function loadCli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<LoadedCli> {
  const file = fileURLToPath(new URL(`./${MEMDESK_CLI_CORE}`, import.meta.url));
  const cache = process.versions.electron ? null : codeCache(file, argv, cwd, env);
  const module = runWithCodeCache<Pick<LoadedCli, 'runCli'>>(file, cache?.file ?? null);
  return {
    runCli: (env) => module.exports.runCli({ ...env, build: BUILD }),
    // Kept only after a whole command that ran well: a usage error, `--help` or a failure ran too
    // little of the CLI, and a cache once taken is never replaced (V8 accepts it).
    settle: (exitCode) => {
      if (cache && exitCode === 0 && cache.wholeCommand && module.saveCodeCache())
        forgetStaleCaches(cache.file);
    },
  };
}

interface CodeCacheFile {
  file: string;
  /** The run is a command's own work (not its help, the version or a usage error). */
  wholeCommand: boolean;
}

/**
 * `<home>/memory-cache/cli-code/memdesk-core-<build>-<variant>-<command>-v8-<version>-<arch>.bin`:
 * - the build (the file's content hash) and the variant — the file's size and mtime, this process's
 *   V8 flags (execArgv, NODE_OPTIONS) — because V8 checks a cache against the source's length and
 *   its own flags only: a file changed in place gets a new name instead of old code, and a shell
 *   and an agent's hooks with different flags keep a cache each instead of rejecting each other's;
 * - the command (`recall`, `hook`, `list`…): V8 keeps the code the run compiled, so a cache written
 *   by `setup` would leave every later recall compiling its own functions again;
 * - the V8 (Node and Electron sharing a home do not overwrite each other's cache).
 */
function codeCache(
  file: string,
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): CodeCacheFile | null {
  try {
    const globals = parseGlobals(argv);
    const home = homeOf(globals, cwd, env);
    const word = globals.rest[0] ?? '';
    const command = /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'other';
    const { size, mtimeMs } = statSync(file);
    const variant = nameHash(`${size}\0${mtimeMs}\0${process.execArgv.join(' ')}\0${env.NODE_OPTIONS ?? ''}`);
    const name = `${CORE_PREFIX}${BUILD}-${variant}-${command}-v8-${process.versions.v8}-${process.arch}.bin`;
    return {
      file: path.join(home, 'memory-cache', 'cli-code', name),
      wholeCommand: !globals.help && !globals.version && globals.rest.length > 0,
    };
  } catch {
    return null; // a usage error (run.ts says it) or no file to name: no cache
  }
}

/**
 * Once a cache is written, the folder is tidied (rare: a cache is written once per build, variant
 * and command): caches of other builds for the same V8 go, all but those of the newest
 * KEPT_OTHER_BUILDS builds (two installs of different versions sharing a home keep theirs rather
 * than removing each other's at every start); any cache or temp file untouched for STALE_MS goes
 * whatever its V8 (Node and Electron updates leave theirs behind; one still in use is written
 * again at its next run).
 */
function forgetStaleCaches(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const ours = parseCacheName(path.basename(cacheFile));
  if (!ours) return;
  const now = Date.now();
  try {
    const newest = new Map<string, number>(); // another build → its newest cache's mtime
    const others: Array<{ file: string; build: string }> = [];
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      const { mtimeMs } = statSync(file);
      if (now - mtimeMs > STALE_MS) {
        rmSync(file, { force: true });
        continue;
      }
      const other = parseCacheName(entry);
      if (!other || other.build === ours.build || other.v8 !== ours.v8) continue;
      newest.set(other.build, Math.max(newest.get(other.build) ?? 0, mtimeMs));
      others.push({ file, build: other.build });
    }
    const kept = new Set(
      [...newest]
        .sort((x, y) => y[1] - x[1])
        .slice(0, KEPT_OTHER_BUILDS)
        .map(([b]) => b),
    );
    for (const { file, build } of others) if (!kept.has(build)) rmSync(file, { force: true });
  } catch {
    // another process tidied it first, or the folder is not ours to change: harmless
  }
}

const KEPT_OTHER_BUILDS = 2;
const STALE_MS = 30 * 24 * 3600_000;

/** A cache's build and V8 (with the arch), from its name. */
function parseCacheName(name: string): { build: string; v8: string } | null {
  if (!name.startsWith(CORE_PREFIX)) return null;
  const m = /^([0-9a-f]+)-[0-9a-f]{16}-[a-z][a-z-]*-v8-(.+)\.bin$/.exec(name.slice(CORE_PREFIX.length));
  return m ? { build: m[1]!, v8: m[2]! } : null;
}
