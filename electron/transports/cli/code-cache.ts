import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** A CommonJS file run with V8's code cache: its exports, and how to keep the cache for the next start. */
export interface CachedModule<T> {
  exports: T;
  /** Whether V8 took the cache it was given (false: none yet, or made by another build or V8). */
  cacheUsed: boolean;
  /**
   * Writes the code V8 has compiled so far (the functions this run called too) to the cache file,
   * when there was none or V8 refused it. Never throws: the cache only saves time. True when written.
   */
  saveCodeCache(): boolean;
}

/**
 * Runs a CommonJS bundle as Node's require would, but compiled from V8's code cache when one is
 * kept: parsing and compiling a megabyte of JavaScript is most of a cold CLI start on Node 20,
 * which has no compile cache of its own (module.enableCompileCache came in Node 22) and none at
 * all for ES modules. V8 checks a cache against its own version and flags and the source's length,
 * not its text, so `cacheFile` must be named after the file's content (the bundle's name carries
 * its hash: scripts/build-cli.ts). `cacheFile` null: no cache. The file may not use import()
 * (Node 20 offers a script compiled this way none without an experimental flag): the build turns
 * each into require().
 */
export function runWithCodeCache<T>(file: string, cacheFile: string | null): CachedModule<T> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  if (cacheFile !== null)
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined; // none yet (or unreadable): compiled from source, saved after the run
    }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const cacheUsed = cachedData !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (
    exports: T,
    require: NodeJS.Require,
    module: { exports: T },
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return {
    exports: module.exports,
    cacheUsed,
    saveCodeCache() {
      if (cacheFile === null || cacheUsed) return false;
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        mkdirSync(path.dirname(cacheFile), { recursive: true });
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile); // whole or not at all: another process may be reading it
        return true;
      } catch {
        try {
          rmSync(temp, { force: true });
        } catch {
          // a folder we cannot write to: nothing was left there
        }
        return false;
      }
    },
  };
}
