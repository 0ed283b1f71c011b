import { answerHook } from '../../agents/hooks/answer-hook.js';
import { memoryPrompt, visibleNotes } from '../../agents/recall/agent-recall.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';
import { recallReply } from '../recall-reply.js';

export type AgentsConnectHandlers = Pick<
  ApiHandlers,
  'agents.recall' | 'agents.prompt' | 'agents.hook' | 'agents.extract' | 'agents.setup' | 'agents.connections'
>;

/**
 * The agents handlers over the services the composition root built (ctx.agents). Extraction and
 * setup (every harness's config files) are imported when first called: a per-message hook, which
 * answers from recall or the index, loads neither (docs/performance.md, "cold path").
 */
export function createAgentsConnectHandlers(ctx: HandlerContext): AgentsConnectHandlers {
  const { core, agents } = ctx;
  return {
    'agents.recall': ({ message, alreadyAttached }) =>
      recallReply(core, { message, alreadyAttached, record: true }),
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
    'agents.extract': async (input) => {
      const [{ extractFromTranscript }, model] = await Promise.all([
        import('../../agents/extract/extract.js'),
        agents.extractModel(),
      ]);
      return extractFromTranscript({ core, notes: ctx.notes, cwd: ctx.cwd, model }, input);
    },
    'agents.setup': async (input) => {
      const [{ runSetup }, { ruleProject }] = await Promise.all([
        import('../../agents/setup/setup.js'),
        import('../../agents/setup/rule-project.js'),
      ]);
      const project = await ruleProject(core, ctx.env, {
        root: input.projectRule ? input.projectRoot : undefined,
        removing: input.undo,
      });
      return runSetup(agents.setup, input, project);
    },
    'agents.connections': async () => {
      const [{ harnessStatuses, cursorRuleStates }, { notesTaggedForProjects }] = await Promise.all([
        import('../../agents/setup/setup.js'),
        import('../../agents/project-tags.js'),
      ]);
      return {
        harnesses: await harnessStatuses(agents.setup),
        cursorRules: await cursorRuleStates(agents.setup, core.project?.root ?? null),
        ...(await notesTaggedForProjects(core)),
      };
    },
  };
}
