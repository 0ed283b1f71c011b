import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type CleanupHandlers = Pick<
  ApiHandlers,
  | 'cleanup.findings'
  | 'cleanup.count'
  | 'cleanup.dismiss'
  | 'cleanup.dismissMany'
  | 'cleanup.undismiss'
  | 'cleanup.mergePlan'
  | 'cleanup.cancelDraft'
  | 'cleanup.mergeApply'
  | 'cleanup.modelStatus'
  | 'cleanup.modelConfigure'
>;

export async function createCleanupHandlers(ctx: HandlerContext): Promise<CleanupHandlers> {
  // Built by the composition root (electron/app/cleanup-services.ts), shared with background consolidation.
  const service = await ctx.cleanup.service();
  const drafts = new Map<string, AbortController>();
  return {
    'cleanup.findings': async ({ scope, includeDismissed }) => ({
      findings: await service.findings({ scope, includeDismissed }),
    }),
    'cleanup.count': async ({ scope }) => ({ count: (await service.findings({ scope })).length }),
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
