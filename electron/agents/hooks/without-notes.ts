import type { Harness } from '../../../shared/api/agents-connect.js';
import { CONTRACTS } from './contracts.js';
import { loadMemoryConfig } from '../../memory/config.js';
import { beforeEffects, EffectsRefused } from './effects-gate.js';
import { logHookProblem } from './hook-log.js';
import { SessionStore } from './session-state.js';

/** One hook call: the harness, its event name, and its input (JSON text as read from stdin, or parsed). */
export interface HookCall {
  harness: Harness;
  event: string;
  payload: unknown;
}

export function payloadObject(payload: unknown): Record<string, unknown> {
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = payload.trim() ? JSON.parse(payload) : {};
    } catch {
      throw new Error('the hook input on stdin is not JSON');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('the hook input is not a JSON object');
  return value as Record<string, unknown>;
}

/** Longest prompt kept for a later recall (recall reads the start of a message anyway). */
const MAX_QUEUED_PROMPT = 8_000;

export function queuePrompt(sessions: SessionStore, harness: Harness, sessionId: string, prompt: string) {
  return sessions.update(harness, sessionId, (s) => ({
    ...s,
    pendingPrompt: prompt.slice(0, MAX_QUEUED_PROMPT),
  }));
}

/**
 * The hooks that need no note answered without opening the notes (the person or the harness is
 * waiting): `queue-prompt` (Cursor's beforeSubmitPrompt) keeps the prompt; Stop / PreCompact with
 * extraction off (the default) only free the session's attached notes before a compaction. Whether
 * extraction is on is read from the user config and environment alone: a project config can only
 * turn it off. null when the call needs the notes (answer-hook.ts). Never throws; problems logged.
 */
export async function answerWithoutNotes(
  home: string,
  env: Record<string, string | undefined>,
  call: HookCall,
): Promise<{ output: string } | null> {
  const contract = CONTRACTS[call.harness];
  const action = contract.events[call.event];
  if (action !== 'queue-prompt' && action !== 'extract-stop' && action !== 'extract-compact') return null;
  try {
    if (action !== 'queue-prompt') {
      const { autoExtract: auto } = (await loadMemoryConfig({ home, env })).config;
      if (action === 'extract-stop' ? auto.onStop : auto.onCompaction || auto.onStop) return null;
    }
    const input = contract.read(payloadObject(call.payload));
    await beforeEffects();
    const sessions = new SessionStore(home, Date.now);
    if (action === 'queue-prompt' && input.sessionId && input.prompt?.trim())
      await queuePrompt(sessions, call.harness, input.sessionId, input.prompt);
    if (action === 'extract-compact' && input.sessionId && !input.subagent)
      await sessions.update(call.harness, input.sessionId, (s) => ({ ...s, attached: [] }));
  } catch (err) {
    if (err instanceof EffectsRefused) throw err; // a warm answer too late: answered cold (effects-gate.ts)
    await logHookProblem(home, Date.now(), `${call.harness} ${call.event}`, err);
  }
  return { output: contract.render(call.event, {}) };
}
