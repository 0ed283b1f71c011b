import { CleanupService } from '../../cleanup/cleanup-service.js';
import type { MergeCommitter } from '../../cleanup/commit-first.js';
import { FileKeyStore, type KeyStore } from '../../cleanup/model/key-store.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type CleanupHandlers = Pick<
  ApiHandlers,
  | 'cleanup.findings'
  | 'cleanup.dismiss'
  | 'cleanup.mergePlan'
  | 'cleanup.cancelDraft'
  | 'cleanup.mergeApply'
  | 'cleanup.modelStatus'
  | 'cleanup.modelConfigure'
>;

/**
 * What the desktop app and the sync engine may provide: the key store (safeStorage in the app; the
 * CLI's 0600 file by default) and the commitFirst step. Optional on the context so the handler
 * table builds without them.
 */
export interface CleanupDeps {
  keyStore?: KeyStore;
  committer?: MergeCommitter | null;
  service?: CleanupService;
}

export function createCleanupHandlers(ctx: HandlerContext & { cleanup?: CleanupDeps }): CleanupHandlers {
  const deps = ctx.cleanup ?? {};
  const service =
    deps.service ??
    new CleanupService({
      core: ctx.core,
      keyStore: deps.keyStore ?? new FileKeyStore(ctx.core.home),
      committer: deps.committer ?? null,
    });
  const drafts = new Map<string, AbortController>();
  return {
    'cleanup.findings': async ({ scope, includeDismissed }) => ({
      findings: await service.findings({ scope, includeDismissed }),
    }),
    'cleanup.dismiss': async ({ findingId }) => service.dismiss(findingId),
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
