import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createMemoryCore } from '../../memory/core.js';
import type { MemoryCore } from '../../memory/types.js';
import { usageKey } from '../../memory/search/index.js';
import type { StartExtraction } from '../extract/detached.js';
import { memoryPrompt, recallForAgent } from '../recall/agent-recall.js';
import { CONTRACTS, type HookContract, type HookInput, type HookReply } from './contracts.js';
import { beforeEffects, EffectsRefused } from './effects-gate.js';
import { logHookProblem } from './hook-log.js';
import { payloadObject, queuePrompt, type HookCall } from './without-notes.js';

export type { HookCall } from './without-notes.js';
import { SessionStore } from './session-state.js';

/**
 * The hard time budget of a hook's own work (reading notes, recall, session state): past it the
 * hook answers empty and says so in the log. The harness's own timeout (setup writes 10 s) stays
 * the outer bound; extraction never counts against either, it runs in a detached process.
 */
export const HOOK_BUDGET_MS = 2_500;

/**
 * The budget `MEMDESK_HOOK_BUDGET_MS` sets (a slow or loaded machine), whole milliseconds below the
 * harness's 10 s; anything else is the default.
 */
export function hookBudget(env: Record<string, string | undefined>): number {
  const ms = Number(env.MEMDESK_HOOK_BUDGET_MS);
  return Number.isSafeInteger(ms) && ms > 0 && ms < 10_000 ? ms : HOOK_BUDGET_MS;
}

export interface HookDeps {
  core: MemoryCore;
  /** For a core opened on the session's own project (its config overrides). */
  env: Record<string, string | undefined>;
  startExtraction: StartExtraction;
  budgetMs?: number;
}

class HookTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within the hook's budget of ${ms} ms; answered empty`);
    this.name = 'HookTimeout';
  }
}

/**
 * Answers one hook call in the harness's own format. Never throws and never blocks the agent: an
 * unknown event, bad input, any error or the time budget running out gives the empty answer, and
 * failures are one line in $OHARNESS_HOME/logs/hooks.log.
 */
export async function answerHook(deps: HookDeps, call: HookCall): Promise<{ output: string }> {
  const contract = CONTRACTS[call.harness];
  const empty = { output: contract.render(call.event, {}) };
  const action = contract.events[call.event];
  if (!action) return empty;
  const budget = deps.budgetMs ?? hookBudget(deps.env);
  let timer: NodeJS.Timeout | undefined;
  try {
    const input = contract.read(payloadObject(call.payload));
    const work = inSessionProject(deps, input.cwd, (core) =>
      replyFor({ ...deps, core }, contract, call.event, input),
    );
    let late = false;
    // Past the budget the work is abandoned: a later failure of it is logged, never thrown.
    work.catch(async (err: unknown) => {
      if (late)
        await logHookProblem(
          deps.core.home,
          deps.core.now(),
          `${call.harness} ${call.event} (after the budget)`,
          err,
        );
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new HookTimeout(budget));
      }, budget);
    });
    const reply = await Promise.race([work, timeout]);
    return { output: contract.render(call.event, reply) };
  } catch (err) {
    // A warm answer its caller stopped waiting for: the caller answers cold and logs that itself.
    if (err instanceof EffectsRefused) throw err;
    await logHookProblem(deps.core.home, deps.core.now(), `${call.harness} ${call.event}`, err);
    return empty;
  } finally {
    clearTimeout(timer);
  }
}

/** The nearest directory upwards registered as a project (`.oharness/project.json`), else `dir` itself. */
async function projectRootOf(dir: string): Promise<string> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (
      await fs.stat(path.join(d, '.oharness', 'project.json')).then(
        () => true,
        () => false,
      )
    )
      return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
}

/**
 * Harnesses do not all run hooks in the session's directory (Cursor runs user hooks from
 * ~/.cursor): when the hook input names another directory than the one memdesk was started in,
 * its project's notes are the ones answered from.
 */
async function inSessionProject<T>(
  deps: HookDeps,
  cwd: string | null,
  fn: (core: MemoryCore) => Promise<T>,
): Promise<T> {
  if (!cwd) return fn(deps.core);
  const root = await projectRootOf(cwd);
  if (deps.core.project && path.resolve(deps.core.project.root) === root) return fn(deps.core);
  const core = await createMemoryCore({
    home: deps.core.home,
    projectRoot: root,
    env: deps.env,
    now: deps.core.now,
  });
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}

async function replyFor(
  deps: HookDeps,
  contract: HookContract,
  event: string,
  input: HookInput,
): Promise<HookReply> {
  const { core } = deps;
  const sessions = new SessionStore(core.home, core.now);
  const action = contract.events[event];
  const where = `${contract.harness} ${event}`;

  if (action === 'index') {
    await beforeEffects();
    await sessions.prune();
    // After /clear or a compaction the messages that carried attached notes are gone: free them.
    if (input.sessionId && (input.source === 'clear' || input.source === 'compact')) {
      await sessions.update(contract.harness, input.sessionId, (s) => ({ ...s, attached: [] }));
    }
    return { context: (await memoryPrompt(core)).prompt };
  }

  if (input.subagent) return {};

  if (action === 'queue-prompt') {
    await beforeEffects();
    if (input.sessionId && input.prompt?.trim())
      await queuePrompt(sessions, contract.harness, input.sessionId, input.prompt);
    return {};
  }

  if (action === 'recall' || action === 'recall-queued') {
    await beforeEffects();
    let message = input.prompt;
    if (action === 'recall-queued') {
      if (!input.sessionId) return {};
      // Once per prompt: taken out of the session as it is recalled for.
      let queued: string | null = null;
      await sessions.update(contract.harness, input.sessionId, (s) => {
        queued = s.pendingPrompt;
        return { ...s, pendingPrompt: null };
      });
      message = queued;
    }
    if (!message?.trim()) return {};
    const state = input.sessionId ? await sessions.read(contract.harness, input.sessionId) : null;
    const result = await recallForAgent(core, {
      message,
      alreadyAttached: state?.attached ?? [],
      record: true,
    });
    if (result.error !== undefined) await logHookProblem(core.home, core.now(), where, result.error);
    let saved = 0;
    if (input.sessionId && (result.notes.length > 0 || (state?.savedPending ?? 0) > 0)) {
      await sessions.update(contract.harness, input.sessionId, (s) => {
        saved = s.savedPending;
        return {
          ...s,
          savedPending: 0,
          attached: [...s.attached, ...result.notes.map((n) => usageKey(n.scope, n.id))],
        };
      });
    }
    return {
      ...(result.text ? { context: result.text } : {}),
      ...noticeOf(result.notes.length, saved, result.notice),
    };
  }

  // extract-stop / extract-compact
  await beforeEffects();
  const auto = core.config.autoExtract;
  const enabled = action === 'extract-stop' ? auto.onStop : auto.onCompaction || auto.onStop;
  if (action === 'extract-compact' && input.sessionId) {
    // Compaction summarises the messages away: the notes they carried may be attached again.
    await sessions.update(contract.harness, input.sessionId, (s) => ({ ...s, attached: [] }));
  }
  if (!enabled) return {};
  if (!input.transcriptPath || !input.sessionId) {
    await logHookProblem(
      core.home,
      core.now(),
      where,
      new Error('no transcript_path or session id in the hook input: nothing to extract'),
    );
    return {};
  }
  await deps.startExtraction({
    home: core.home,
    projectRoot: core.project?.root ?? null,
    harness: contract.harness,
    sessionId: input.sessionId,
    transcriptPath: input.transcriptPath,
    trigger: action === 'extract-stop' ? 'stop' : 'compact',
  });
  return {};
}

/** Seed: the interfaces show "recalled N memories", and "saved N memories from this conversation". */
function noticeOf(recalled: number, saved: number, semantic?: string): Pick<HookReply, 'notice'> {
  const parts: string[] = [];
  if (semantic) parts.push(semantic);
  if (recalled > 0) parts.push(`recalled ${recalled} ${recalled === 1 ? 'memory' : 'memories'}`);
  if (saved > 0) parts.push(`saved ${saved} ${saved === 1 ? 'memory' : 'memories'} from this conversation`);
  return parts.length > 0 ? { notice: `Memory Desk: ${parts.join('; ')}` } : {};
}
