import type { Harness } from '../../../shared/api/agents-connect.js';

/**
 * The hook contracts of the agent harnesses (docs/agents.md has the sources): which of each
 * harness's events Memory Desk answers, what it reads from the event's JSON on stdin, and how it
 * answers on stdout. Claude Code and Codex share one format; Gemini CLI names its events
 * differently; Cursor answers in snake_case and cannot add context to a prompt (its recall goes
 * with the turn's first tool use).
 */

/** What Memory Desk does for an event. */
export type HookAction =
  /** The memory prompt (guidance + index) as context for the whole session. */
  | 'index'
  /** `<recalled-memory>` for the user's prompt. */
  | 'recall'
  /** Extraction at the end of a turn (memory.autoExtract.onStop). */
  | 'extract-stop'
  /** Extraction before compaction (memory.autoExtract.onCompaction or onStop). */
  | 'extract-compact'
  /** Keep the submitted prompt for `recall-queued` (Cursor: its prompt hook cannot add context). */
  | 'queue-prompt'
  /** `<recalled-memory>` for the kept prompt, once, at the turn's first tool use (Cursor's postToolUse). */
  | 'recall-queued';

/** The fields Memory Desk reads from a hook's input, whatever the harness calls them. */
export interface HookInput {
  sessionId: string | null;
  transcriptPath: string | null;
  prompt: string | null;
  /** SessionStart's source: startup | resume | clear | compact. */
  source: string | null;
  /** True inside a subagent: a subagent neither recalls nor extracts. */
  subagent: boolean;
  /** The session's working directory (Cursor: the first workspace root); its project is the one recalled from. */
  cwd: string | null;
}

/** What an answer carries before it is put in the harness's format. */
export interface HookReply {
  /** Text for the model (the memory prompt, or `<recalled-memory>`). */
  context?: string;
  /** A line for the person ("recalled 2 memories", "saved 3 memories from this conversation"). */
  notice?: string;
}

export interface HookContract {
  harness: Harness;
  name: string;
  /** The harness's event names Memory Desk answers, and what it does for each. */
  events: Readonly<Record<string, HookAction>>;
  read(payload: Record<string, unknown>): HookInput;
  /** The stdout text for an answer ('' prints nothing). */
  render(event: string, reply: HookReply): string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** Claude Code's common input fields (session_id, transcript_path, cwd, …), shared by Codex. */
function readClaudeLike(p: Record<string, unknown>): HookInput {
  return {
    sessionId: str(p.session_id),
    transcriptPath: str(p.transcript_path),
    prompt: typeof p.prompt === 'string' ? p.prompt : null,
    source: str(p.source),
    subagent: str(p.agent_id) !== null,
    cwd: str(p.cwd),
  };
}

/**
 * `{"hookSpecificOutput": {"hookEventName", "additionalContext"}, "systemMessage"}` — Claude Code's
 * JSON output (and Codex's, and Gemini CLI's); nothing at all when there is nothing to say.
 */
function renderHookSpecific(event: string, reply: HookReply, empty: string): string {
  const out: Record<string, unknown> = {};
  if (reply.context) out.hookSpecificOutput = { hookEventName: event, additionalContext: reply.context };
  if (reply.notice) out.systemMessage = reply.notice;
  return Object.keys(out).length > 0 ? JSON.stringify(out) : empty;
}

const claudeEvents = {
  SessionStart: 'index',
  UserPromptSubmit: 'recall',
  Stop: 'extract-stop',
  PreCompact: 'extract-compact',
} as const satisfies Record<string, HookAction>;

export const CONTRACTS: Readonly<Record<Harness, HookContract>> = {
  'claude-code': {
    harness: 'claude-code',
    name: 'Claude Code',
    events: claudeEvents,
    read: readClaudeLike,
    render: (event, reply) => renderHookSpecific(event, reply, ''),
  },
  codex: {
    harness: 'codex',
    name: 'Codex CLI',
    // Codex implements Claude Code's contract for these events (codex-rs/hooks/schema/generated).
    events: claudeEvents,
    read: readClaudeLike,
    render: (event, reply) => renderHookSpecific(event, reply, ''),
  },
  gemini: {
    harness: 'gemini',
    name: 'Gemini CLI',
    events: {
      SessionStart: 'index',
      BeforeAgent: 'recall',
      AfterAgent: 'extract-stop',
      PreCompress: 'extract-compact',
    },
    read: (p) => ({ ...readClaudeLike(p), subagent: false }),
    // Gemini parses stdout as JSON: an empty answer is `{}`.
    render: (event, reply) => renderHookSpecific(event, reply, '{}'),
  },
  cursor: {
    harness: 'cursor',
    name: 'Cursor',
    // beforeSubmitPrompt can only let a prompt through or block it, not add to it. So the prompt is
    // kept, and its <recalled-memory> goes with the turn's first tool use (postToolUse's
    // additional_context); a turn without tools gets none (the memory prompt tells the agent to call
    // the recall tool then).
    events: {
      sessionStart: 'index',
      beforeSubmitPrompt: 'queue-prompt',
      postToolUse: 'recall-queued',
      stop: 'extract-stop',
      preCompact: 'extract-compact',
    },
    read: (p) => ({
      sessionId: str(p.conversation_id) ?? str(p.session_id),
      transcriptPath: str(p.transcript_path),
      prompt: typeof p.prompt === 'string' ? p.prompt : null,
      source: null,
      subagent: false,
      cwd: Array.isArray(p.workspace_roots) ? str(p.workspace_roots[0]) : null,
    }),
    render: (event, reply) => {
      // Whatever happens, the prompt goes through.
      if (event === 'beforeSubmitPrompt') return JSON.stringify({ continue: true });
      return (event === 'sessionStart' || event === 'postToolUse') && reply.context
        ? JSON.stringify({ additional_context: reply.context })
        : '{}';
    },
  },
};
