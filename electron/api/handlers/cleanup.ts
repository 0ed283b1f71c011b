import { CleanupService } from '../../cleanup/cleanup-service.js';
import type { MergeSync } from '../../cleanup/merge-sync-port.js';
import { FileKeyStore } from '../../cleanup/model/key-store.js';
import { mergeSyncFor } from '../../sync/commit-first.js';
import { syncEngineFor } from '../../sync/process-engine.js';
import type { MemoryCore } from '../../memory/types.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type CleanupHandlers = Pick<
  ApiHandlers,
  | 'cleanup.findings'
  | 'cleanup.dismiss'
  | 'cleanup.dismissMany'
  | 'cleanup.undismiss'
  | 'cleanup.mergePlan'
  | 'cleanup.cancelDraft'
  | 'cleanup.mergeApply'
  | 'cleanup.modelStatus'
  | 'cleanup.modelConfigure'
>;

/**
 * What the desktop app may provide (`ctx.cleanup`): the key store (safeStorage in the app; the
 * CLI's 0600 file by default). The link to the sync engine defaults to this process's engine
 * (`syncEngineFor(core)`, built at the first merge), so a merge with sync on commits first.
 */

/** The process's sync engine for this core, looked up when a merge is applied. */
export function processMergeSync(core: MemoryCore): MergeSync {
  return {
    enabled: (scope) => mergeSyncFor(syncEngineFor(core), core).enabled(scope),
    commitFirst: (scope, batch) => mergeSyncFor(syncEngineFor(core), core).commitFirst(scope, batch),
  };
}

export function createCleanupHandlers(ctx: HandlerContext): CleanupHandlers {
  const deps = ctx.cleanup ?? {};
  const service =
    deps.service ??
    new CleanupService({
      core: ctx.core,
      keyStore: deps.keyStore ?? new FileKeyStore(ctx.core.home),
      sync: deps.sync === undefined ? processMergeSync(ctx.core) : deps.sync,
    });
  const drafts = new Map<string, AbortController>();
  return {
    'cleanup.findings': async ({ scope, includeDismissed }) => ({
      findings: await service.findings({ scope, includeDismissed }),
    }),
    'cleanup.dismiss': async ({ findingId }) => service.dismiss(findingId),
    'cleanup.dismissMany': async ({ findingIds }) => ({
      findingIds: (await service.dismissMany(findingIds)).map((d) => d.findingId),
    }),
    'cleanup.undismiss': async ({ findingIds }) => service.undismiss(findingIds),
    'cleanup.mergePlan': async ({ ids, scope, draft, requestId }) => {
      const abort = new AbortController();
      if (requestId) drafts.set(requestId, abort);
      try {
        return await service.planMerge({ ids, draft, signal: abort.signal, ...(scope ? { scope } : {}) });
      } finally {
        if (requestId && drafts.get(requestId) === abort) drafts.delete(requestId);
      }
    },
    'cleanup.cancelDraft': async ({ requestId }) => {
      const abort = drafts.get(requestId);
      abort?.abort();
      return { cancelled: abort !== undefined };
    },
    'cleanup.mergeApply': async (plan) => service.applyMerge(plan),
    'cleanup.modelStatus': async () => service.modelStatus(),
    'cleanup.modelConfigure': async (input) => service.configureModel(input),
  };
}
