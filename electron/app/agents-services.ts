import type { AgentsServices } from '../api/context.js';
import type { KeyStore } from '../cleanup/model/key-store.js';
import type { MemoryCore } from '../memory/types.js';

/**
 * The agents area's services for one open project: extraction's model (the endpoint 生成合并建议
 * uses, its key from the process's key store), extraction detached from the hook that asked, and
 * what setup reads and writes. Each module loads on first use: a per-message hook loads none of them.
 */
export function createAgentsServices(
  core: MemoryCore,
  env: Record<string, string | undefined>,
  keyStore: KeyStore | undefined,
): AgentsServices {
  return {
    extractModel: async () =>
      (await import('./extract-model.js')).configuredExtractModel(core.home, keyStore),
    startExtraction: async (job) =>
      (await import('../agents/extract/detached.js')).startDetachedExtraction(job),
    setup: { home: core.home, env, now: core.now },
  };
}
