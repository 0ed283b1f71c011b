import type { Harness } from '../../../shared/api/agents-connect.js';
import { CONTRACTS } from './contracts.js';
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
 * A `queue-prompt` hook (Cursor's beforeSubmitPrompt) answered without opening the notes: it only
 * keeps the prompt, and the person is waiting for it to be sent. Never throws; problems are logged.
 */
export async function answerQueuePrompt(home: string, call: HookCall): Promise<{ output: string }> {
  const contract = CONTRACTS[call.harness];
  try {
    if (contract.events[call.event] === 'queue-prompt') {
      const input = contract.read(payloadObject(call.payload));
      if (input.sessionId && input.prompt?.trim())
        await queuePrompt(new SessionStore(home, Date.now), call.harness, input.sessionId, input.prompt);
    }
  } catch (err) {
    await logHookProblem(home, Date.now(), `${call.harness} ${call.event}`, err);
  }
  return { output: contract.render(call.event, {}) };
}
