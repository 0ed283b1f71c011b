import { extractFromTranscript } from '../../agents/extract/extract.js';
import { answerHook } from '../../agents/hooks/answer-hook.js';
import { notesTaggedForProjects } from '../../agents/project-tags.js';
import { memoryPrompt, recallForAgent, visibleNotes } from '../../agents/recall/agent-recall.js';
import { harnessStatuses, runSetup } from '../../agents/setup/setup.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';
import { logRecallError } from '../recall-error.js';

export type AgentsConnectHandlers = Pick<
  ApiHandlers,
  'agents.recall' | 'agents.prompt' | 'agents.hook' | 'agents.extract' | 'agents.setup' | 'agents.connections'
>;

export function createAgentsConnectHandlers(ctx: HandlerContext): AgentsConnectHandlers {
  const { core, agents } = ctx;
  return {
    'agents.recall': async ({ message, alreadyAttached }) => {
      const result = await recallForAgent(core, { message, alreadyAttached, record: true });
      if (result.error !== undefined) logRecallError(result.error);
      return { notes: result.notes, linked: result.linked, text: result.text };
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
      answerHook({ core, env: ctx.env, startExtraction: agents.startExtraction }, call),
    'agents.extract': async (input) =>
      extractFromTranscript(
        {
          core,
          notes: ctx.notes,
          cwd: ctx.cwd,
          model: await agents.extractModel(),
        },
        input,
      ),
    'agents.setup': (input) => runSetup(agents.setup, input),
    'agents.connections': async () => ({
      harnesses: await harnessStatuses(agents.setup),
      ...(await notesTaggedForProjects(core)),
    }),
  };
}
