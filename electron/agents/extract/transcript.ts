/**
 * The user and assistant messages of an agent's transcript, whichever harness wrote it:
 * - Claude Code: JSONL, `{"type":"user"|"assistant","message":{"role","content": string | blocks}}`
 *   (tool results, meta and sidechain — subagent — lines are not conversation);
 * - Codex CLI: JSONL rollout, `{"type":"response_item","payload":{"type":"message","role","content":[{"type":"input_text"|"output_text","text"}]}}`;
 * - Cursor: JSONL, `{"role":"user"|"assistant","message":{"content":[{"type":"text","text"}]}}`,
 *   user text inside `<user_query>`;
 * - Gemini CLI: one JSON document `{"messages":[{"type":"user"|"gemini","content": string | parts}]}`.
 * Lines that are none of these are skipped, never fatal.
 */
export interface TranscriptEntry {
  role: 'user' | 'assistant';
  text: string;
}

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text of a message content: a string, or the text of its text blocks (tool calls and results are not). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (
      isObj(block) &&
      typeof block.text === 'string' &&
      ['text', 'input_text', 'output_text', undefined].includes(block.type as string | undefined)
    )
      parts.push(block.text);
  }
  return parts.join('\n');
}

function roleOf(v: unknown): TranscriptEntry['role'] | null {
  if (v === 'user') return 'user';
  if (v === 'assistant' || v === 'gemini' || v === 'model') return 'assistant';
  return null;
}

/** Text the harness itself put in a user message (environment, instructions, commands): not the person's words. */
const HARNESS_TEXT =
  /^\s*<(environment_context|user_instructions|command-name|command-message|local-command-stdout|system-reminder)>/;

function cleanUserText(text: string): string {
  const query = /<user_query>([\s\S]*?)<\/user_query>/.exec(text);
  return (query ? query[1]! : text).trim();
}

function entryOf(line: Json): TranscriptEntry | null {
  if (line.isMeta === true || line.isSidechain === true) return null;
  let role: TranscriptEntry['role'] | null;
  let content: unknown;
  if (line.type === 'response_item' && isObj(line.payload) && line.payload.type === 'message') {
    role = roleOf(line.payload.role);
    content = line.payload.content;
  } else if (isObj(line.message)) {
    role = roleOf(line.message.role) ?? roleOf(line.role) ?? roleOf(line.type);
    content = line.message.content;
  } else {
    role = roleOf(line.type) ?? roleOf(line.role);
    content = line.content;
  }
  if (!role) return null;
  let text = textOf(content);
  if (role === 'user') {
    if (HARNESS_TEXT.test(text)) return null;
    text = cleanUserText(text);
  }
  text = text.trim();
  return text ? { role, text } : null;
}

export function parseTranscript(raw: string): TranscriptEntry[] {
  const trimmed = raw.trim();
  if (trimmed.startsWith('{')) {
    try {
      const doc = JSON.parse(trimmed) as unknown;
      if (isObj(doc) && Array.isArray(doc.messages)) {
        return doc.messages
          .filter(isObj)
          .map(entryOf)
          .filter((e): e is TranscriptEntry => e !== null);
      }
    } catch {
      // not one document: read it as JSONL
    }
  }
  const out: TranscriptEntry[] = [];
  for (const text of raw.split(/\r?\n/)) {
    if (!text.trim()) continue;
    try {
      const line = JSON.parse(text) as unknown;
      const entry = isObj(line) ? entryOf(line) : null;
      if (entry) out.push(entry);
    } catch {
      // a torn last line while the harness is writing: skip it
    }
  }
  return out;
}
