import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { ApiOutput, ApiParsedInput } from '../../../shared/api.js';
import type { RetainReceipt } from '../../../shared/api/agents.js';
import type { MemoryCore, NotesService } from '../../memory/types.js';
import { SELF_CONTAINED, TAG_OTHER_WORDS, WORTH_WRITING } from '../guidance.js';
import { SessionStore } from '../hooks/session-state.js';
import { projectFilterLabel } from '../project-filter.js';
import { retain } from '../retain/retain.js';
import { rewriteNote, showNote, shownLine, type ShownNote } from './rewrite.js';
import { parseTranscript, type TranscriptEntry } from './transcript.js';

/** Extraction never runs longer than this, whatever the model's own timeout (it is detached, but not forever). */
export const EXTRACT_BUDGET_MS = 120_000;
/** The newest part of the conversation the model is shown, at most. */
export const EXTRACT_CONVERSATION_CHARS = 60_000;
/** Facts taken from one answer at most, and characters per fact. */
export const MAX_FACTS = 10;
const MAX_FACT_CHARS = 2_000;
/** Existing related notes shown to the model, so it does not repeat them and can rewrite them. */
const RELATED_SHOWN = 12;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The configured model — the one 待整理's 生成合并建议 uses — as the caller provides it (agents do
 * not import cleanup: the API handler builds this from cleanup's model settings and key store).
 */
export interface ExtractModel {
  /** The JSON object in the model's answer (undefined when it has none); throws an Error a person can read. */
  askJson(messages: ChatMessage[], timeoutMs: number): Promise<unknown>;
}

export interface ExtractDeps {
  core: MemoryCore;
  notes: NotesService;
  cwd: string;
  /** null when no model is set up. */
  model: ExtractModel | null;
}

type ExtractInput = ApiParsedInput<'agents.extract'>;
type ExtractOutput = ApiOutput<'agents.extract'>;

const FactsSchema = z.object({
  facts: z
    .array(
      z.union([
        z.string(),
        z.object({ content: z.string(), context: z.string().optional(), rewrites: z.string().optional() }),
      ]),
    )
    .default([]),
});

export function buildExtractPrompt(
  conversation: readonly TranscriptEntry[],
  existing: readonly ShownNote[],
): ChatMessage[] {
  let text = '';
  for (let i = conversation.length - 1; i >= 0; i--) {
    const e = conversation[i]!;
    const line = `${e.role === 'user' ? 'User' : 'Assistant'}: ${e.text}\n\n`;
    if (text.length + line.length > EXTRACT_CONVERSATION_CHARS) break;
    text = line + text;
  }
  return [
    {
      role: 'system',
      content: [
        'You read a conversation between a person and an AI coding agent and pick out the few facts worth keeping in long-term memory for future sessions. Most conversations have none: then answer with an empty list.',
        WORTH_WRITING,
        SELF_CONTAINED,
        TAG_OTHER_WORDS + ' Write tags as #hashtags at the end of the fact.',
        existing.length > 0
          ? `Already in memory, related to this conversation (do not repeat what is still right):\n${existing.map(shownLine).join('\n')}\n\nWhen the conversation corrects, updates or extends one of these notes, do not add a second note beside it: give that note's reference as "rewrites" (e.g. "n2") and write the fact as the note's complete new text, keeping what is still true.`
          : 'Memory is empty so far.',
        `Answer with ONLY a JSON object: {"facts": [{"content": "one fact", "context": "where in the conversation it comes from", "rewrites": "n2 (only when it replaces that note)"}]} — at most ${MAX_FACTS} facts, in the language of the conversation.`,
      ].join('\n\n'),
    },
    { role: 'user', content: `The conversation (oldest first):\n\n${text.trim()}` },
  ];
}

type Fact = { content: string; context?: string; rewrites?: string };

/** The model's answer as facts; its text is untrusted (credentials are refused per fact). */
export function factsOf(answer: unknown): Fact[] | null {
  const parsed = FactsSchema.safeParse(answer);
  if (!parsed.success) return null;
  return parsed.data.facts
    .map((f) => (typeof f === 'string' ? { content: f } : f))
    .map((f) => ({
      content: f.content.trim().slice(0, MAX_FACT_CHARS),
      ...(f.context?.trim() ? { context: f.context.trim().slice(0, 300) } : {}),
      ...('rewrites' in f && f.rewrites?.trim() ? { rewrites: f.rewrites.trim() } : {}),
    }))
    .filter((f) => f.content.length > 0)
    .slice(0, MAX_FACTS);
}

/**
 * Each fact in order: one that names a shown note in `rewrites` rewrites that note (once per
 * answer; rewrite.ts), every other one goes through retain. Receipts in the facts' order.
 */
async function keepFacts(
  deps: ExtractDeps,
  facts: readonly Fact[],
  shown: readonly ShownNote[],
): Promise<{ receipts: RetainReceipt[]; rewritten: number }> {
  const receipts: RetainReceipt[] = [];
  const fresh: Array<{ index: number; fact: Fact }> = [];
  const tried = new Set<string>();
  const rewritten = new Set<string>();
  for (const [index, fact] of facts.entries()) {
    const target = shown.find((n) => n.ref === fact.rewrites);
    if (target && !tried.has(target.ref)) {
      tried.add(target.ref);
      const receipt = await rewriteNote(deps.notes, target, fact, index);
      if (receipt.status === 'updated') rewritten.add(target.ref);
      receipts.push(receipt);
    } else fresh.push({ index, fact });
  }
  if (fresh.length > 0) {
    const items = fresh.map(({ fact }) => ({
      content: fact.content,
      ...(fact.context ? { context: fact.context } : {}),
    }));
    for (const r of (await retain(deps, { items })).receipts)
      receipts.push({ ...r, index: fresh[r.index]!.index });
  }
  return { receipts: receipts.sort((a, b) => a.index - b.index), rewritten: rewritten.size };
}

/**
 * Automatic extraction, `memdesk extract` and the Stop / PreCompact hooks (off unless turned on): the
 * conversation since the last extraction of this session goes to the configured OpenAI-compatible
 * model (the one 生成合并建议 uses), when at least memory.autoExtract.minUserTurns user messages
 * came since — before a compaction whatever is left, however short, since it is the last chance.
 * Each fact becomes a note through retain (a receipt each, credentials refused, identical content
 * updated instead of duplicated), or rewrites the related note it corrects (backed up first). Hooks need memory.autoExtract.onStop / onCompaction (off by default).
 */
export async function extractFromTranscript(deps: ExtractDeps, input: ExtractInput): Promise<ExtractOutput> {
  const { core } = deps;
  const auto = core.config.autoExtract;
  const skipped = (reason: string, userTurns = 0): ExtractOutput => ({
    status: 'skipped',
    reason,
    userTurns,
    receipts: [],
    saved: 0,
  });
  if (input.trigger === 'stop' && !auto.onStop) return skipped('memory.autoExtract.onStop is off');
  if (input.trigger === 'compact' && !auto.onCompaction && !auto.onStop)
    return skipped('memory.autoExtract.onCompaction and onStop are off');

  const sessions = new SessionStore(core.home, core.now);
  const harness = input.harness ?? 'claude-code';
  const from = input.sessionId ? (await sessions.read(harness, input.sessionId)).extractedUpTo : 0;
  const entries = parseTranscript(await fs.readFile(input.transcript, 'utf8'));
  // A transcript shorter than what was read (rewound, replaced) starts over.
  const fresh = entries.slice(from <= entries.length ? from : 0);
  const userTurns = fresh.filter((e) => e.role === 'user').length;
  if (fresh.length === 0) return skipped('nothing new in the conversation since the last extraction', 0);
  if (input.trigger !== 'compact' && userTurns < auto.minUserTurns)
    return skipped(
      `${userTurns} user messages since the last extraction; memory.autoExtract.minUserTurns is ${auto.minUserTurns}`,
      userTurns,
    );

  if (!deps.model) {
    return {
      status: 'failed',
      reason: 'no model is set up: choose one in 待整理 → 生成合并建议 settings',
      userTurns,
      receipts: [],
      saved: 0,
    };
  }
  const label = await projectFilterLabel(core);
  const shown = core
    .search()
    .search(
      fresh
        .map((e) => e.text)
        .join('\n')
        .slice(-4_000),
      {
        limit: RELATED_SHOWN,
        ...(label !== undefined ? { projectLabel: label } : {}),
      },
    )
    .map((h, i) => showNote(deps.notes.find({ id: h.id, scope: h.scope }), `n${i + 1}`));

  let answer: unknown;
  try {
    answer = await deps.model.askJson(buildExtractPrompt(fresh, shown), EXTRACT_BUDGET_MS);
  } catch (err) {
    return { status: 'failed', reason: (err as Error).message, userTurns, receipts: [], saved: 0 };
  }
  const facts = factsOf(answer);
  if (facts === null)
    return {
      status: 'failed',
      reason: 'the model did not answer with {"facts": […]}',
      userTurns,
      receipts: [],
      saved: 0,
    };

  const { receipts, rewritten } = await keepFacts(deps, facts, shown);
  // New notes and rewritten ones: what the person is told was saved from the conversation.
  const saved = receipts.filter((r) => r.status === 'stored').length + rewritten;
  if (input.sessionId) {
    await sessions.update(harness, input.sessionId, (s) => ({
      ...s,
      extractedUpTo: entries.length,
      savedPending: s.savedPending + saved,
    }));
  }
  return { status: 'saved', userTurns, receipts, saved };
}
