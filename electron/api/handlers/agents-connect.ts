import { extractFromTranscript } from '../../agents/extract/extract.js';
import { startDetachedExtraction } from '../../agents/extract/detached.js';
import { answerHook } from '../../agents/hooks/answer-hook.js';
import { notesTaggedForProjects } from '../../agents/project-tags.js';
import { memoryPrompt, recallForAgent, visibleNotes } from '../../agents/recall/agent-recall.js';
import { harnessStatuses, runSetup } from '../../agents/setup/setup.js';
import type { HandlerContext } from '../context.js';
import { configuredExtractModel } from './extract-model.js';
import type { ApiHandlers } from '../dispatch.js';
import { logRecallError } from '../recall-error.js';

export type AgentsConnectHandlers = Pick<
  ApiHandlers,
  'agents.recall' | 'agents.prompt' | 'agents.hook' | 'agents.extract' | 'agents.setup' | 'agents.connections'
>;

export function createAgentsConnectHandlers(ctx: HandlerContext): AgentsConnectHandlers {
  const { core } = ctx;
  const setupDeps = { home: core.home, env: ctx.env, now: core.now };
  return {
    'agents.recall': async ({ message, alreadyAttached }) => {
      const result = await recallForAgent(core, { message, alreadyAttached, record: true });
      if (result.error !== undefined) logRecallError(result.error);
      return {
        notes: result.notes,
        linked: result.linked,
        text: result.text,
        ...(result.notice ? { notice: result.notice } : {}),
      };
    },
    'agents.prompt': async () => ({
      ...(await memoryPrompt(core)),
      notes: (await visibleNotes(core)).map((n) => ({
        id: n.id,
        scope: n.scope,
        summary: n.summary,
        updatedAt: n.updatedAt,
      })),
    }),
    'agents.hook': (call) =>
      answerHook({ core, env: ctx.env, startExtraction: startDetachedExtraction }, call),
    'agents.extract': async (input) =>
      extractFromTranscript(
        {
          core,
          notes: ctx.notes,
          cwd: ctx.cwd,
          model: await configuredExtractModel(core.home, ctx.cleanup?.keyStore),
        },
        input,
      ),
    'agents.setup': (input) => runSetup(setupDeps, input),
    'agents.connections': async () => ({
      harnesses: await harnessStatuses(setupDeps),
      ...(await notesTaggedForProjects(core)),
    }),
  };
}
