import type { CleanupDeps } from '../cleanup/background.js';
import type { CleanupService } from '../cleanup/cleanup-service.js';
import type { MergeSync } from '../cleanup/merge-sync-port.js';
import type { KeyStore } from '../cleanup/model/key-store.js';
import type { MemoryCore } from '../memory/types.js';

export interface LazyCleanup extends CleanupDeps {
  /** Closes the service if it was built (its analysis worker, when it has one). */
  close(): Promise<void>;
}

/**
 * 待整理's service for one open project, shared by the page's handlers and background
 * consolidation. Built on first use: a command that never opens 待整理 (`memdesk recall`) loads
 * none of its code. Without a key store of the process's it uses the 0600 file under
 * OHARNESS_HOME; `analysisWorker` moves findings analysis off the thread of a long-running process.
 */
export function createLazyCleanup(
  core: MemoryCore,
  opts: { keyStore: KeyStore | undefined; sync: MergeSync; analysisWorker: boolean },
): LazyCleanup {
  let built: Promise<CleanupService> | null = null;
  return {
    service: () =>
      (built ??= (async () => {
        const [{ CleanupService }, { FileKeyStore }] = await Promise.all([
          import('../cleanup/cleanup-service.js'),
          import('../cleanup/model/key-store.js'),
        ]);
        const keyStore = opts.keyStore ?? new FileKeyStore(core.home);
        return new CleanupService({ core, keyStore, sync: opts.sync, analysisWorker: opts.analysisWorker });
      })()),
    close: async () => {
      if (built) await (await built).close();
    },
  };
}
