import type { ApiOutput } from '../../shared/api.js';
import { recallForAgent, type AgentRecallRequest } from '../agents/recall/agent-recall.js';
import type { MemoryCore } from '../memory/types.js';
import { logRecallError } from './recall-error.js';

/**
 * The API's answer to a recall: `agents.recall` (counted, `record: true`) and `notes.recall` (a
 * preview) alike. A recall failure attaches nothing and is logged, never thrown.
 */
export async function recallReply(
  core: MemoryCore,
  req: AgentRecallRequest,
): Promise<ApiOutput<'agents.recall'>> {
  const result = await recallForAgent(core, req);
  if (result.error !== undefined) logRecallError(result.error);
  return {
    notes: result.notes,
    linked: result.linked,
    text: result.text,
    ...(result.notice ? { notice: result.notice } : {}),
  };
}
