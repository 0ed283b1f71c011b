import { z } from 'zod';
import { EndpointSettingsSchema } from './endpoint.js';
import { NoteTypeSchema, ScopeSchema } from '../note.js';
import { defineMethod, NoInputSchema } from './define.js';

/** The five kinds of 待整理 finding: same topic, a broken [[link]], a missing file, unused, too long. */
export const FINDING_KINDS = ['same_topic', 'broken_link', 'missing_file', 'unused', 'too_long'] as const;
export const FindingKindSchema = z.enum(FINDING_KINDS);
export type FindingKind = z.infer<typeof FindingKindSchema>;

export const FindingSchema = z.object({
  /** Stable: `<kind>:<scope>:<sorted note ids joined by ",">`. */
  id: z.string(),
  kind: FindingKindSchema,
  scope: ScopeSchema,
  /** The notes the finding is about, sorted. same_topic: 2–6; the other kinds: exactly one. */
  noteIds: z.array(z.string()),
  /** One readable line. */
  detail: z.string(),
  /** broken_link: the link ids naming no note; missing_file: the relative paths not found. */
  targets: z.array(z.string()).optional(),
  /** same_topic: the group's average pairwise similarity (0..1). */
  similarity: z.number().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const MergeDraftSchema = z.object({
  summary: z.string().trim().min(1, 'the merged note needs a summary'),
  type: z.optional(NoteTypeSchema),
  tags: z.array(z.string()),
  body: z.string(),
});
export type MergeDraft = z.infer<typeof MergeDraftSchema>;

export const DraftKindSchema = z.enum(['manual', 'model']);
export type DraftKind = z.infer<typeof DraftKindSchema>;

/**
 * A planned merge. `basis` holds every merged note's content hash at planning time: applying is
 * refused when any of them changed since. The draft may be edited before applying.
 */
export const MergePlanSchema = z.object({
  scope: ScopeSchema,
  /** The oldest note (by createdAt): the one that is kept. */
  keepId: z.string().min(1),
  draft: MergeDraftSchema,
  basis: z.record(z.string(), z.string()),
  /** Where the draft came from; `manual` also when the model failed (see `fallback`). */
  draftSource: DraftKindSchema.optional(),
  /** Why the model's draft was not used (timeout, bad answer, no model configured). */
  fallback: z.string().optional(),
  /** What was done to an untrusted model draft: links unbracketed, credentials masked. */
  remarks: z.array(z.string()).optional(),
});
export type MergePlan = z.infer<typeof MergePlanSchema>;

export const MergeResultSchema = z.object({
  scope: ScopeSchema,
  keptId: z.string(),
  deletedIds: z.array(z.string()),
  /** Notes (other than the kept one) whose `[[deleted]]` links now name the kept note. */
  repointed: z.array(z.object({ id: z.string(), links: z.number().int() })),
  /** Every backup written before a change or delete. */
  backupIds: z.array(z.string()),
  /** True when the batch was committed to the cloud before this machine (commitFirst). */
  committedFirst: z.boolean(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

export const ModelStatusSchema = z.object({
  /** Whether 生成合并建议 can be offered. */
  available: z.boolean(),
  /** One line saying why not (null when available). */
  reason: z.string().nullable(),
  ...EndpointSettingsSchema.shape,
  timeoutMs: z.number().int(),
});
export type ModelStatus = z.infer<typeof ModelStatusSchema>;

export const cleanupApi = {
  'cleanup.findings': defineMethod({
    summary:
      '待整理: same topic, broken links, missing files, unused and too-long notes (dismissed ones left out).',
    input: z.object({
      scope: z.enum(['project', 'user', 'both']).default('both'),
      includeDismissed: z.boolean().default(false),
    }),
    output: z.object({ findings: z.array(FindingSchema) }),
  }),
  'cleanup.count': defineMethod({
    summary:
      "How many findings cleanup.findings would list (the 待整理 tab's badge: a number, not thousands of findings).",
    input: z.object({ scope: z.enum(['project', 'user', 'both']).default('both') }),
    output: z.object({ count: z.number().int().nonnegative() }),
  }),
  'cleanup.dismiss': defineMethod({
    summary: "Dismiss a finding against its notes' current versions: editing one of them brings it back.",
    input: z.object({ findingId: z.string().min(1) }),
    output: z.object({ findingId: z.string(), hashes: z.record(z.string(), z.string()) }),
  }),
  'cleanup.dismissMany': defineMethod({
    summary: 'Dismiss several findings at once (a group); all or nothing.',
    input: z.object({ findingIds: z.array(z.string().min(1)).min(1) }),
    output: z.object({ findingIds: z.array(z.string()) }),
  }),
  'cleanup.undismiss': defineMethod({
    summary: 'Undo of a dismissal: the findings are shown again while they still apply.',
    input: z.object({ findingIds: z.array(z.string().min(1)).min(1) }),
    output: z.object({ findingIds: z.array(z.string()) }),
  }),
  'cleanup.mergePlan': defineMethod({
    summary:
      'Plan a merge of 2–6 notes of one scope: keep the oldest, with a manual (手动合并) or model (生成合并建议) draft.',
    input: z.object({
      ids: z
        .array(z.string().min(1))
        .min(2, 'a merge needs at least 2 notes')
        .max(6, 'a merge takes at most 6 notes'),
      scope: z.optional(ScopeSchema),
      draft: DraftKindSchema.default('manual'),
      /** Names this request so `cleanup.cancelDraft` can stop a model draft in progress. */
      requestId: z.string().min(1).max(100).optional(),
    }),
    output: MergePlanSchema,
  }),
  'cleanup.cancelDraft': defineMethod({
    summary:
      'Cancel a model draft in progress (生成合并建议 → cancel); its plan falls back to the manual draft.',
    input: z.object({ requestId: z.string().min(1) }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'cleanup.mergeApply': defineMethod({
    summary:
      'Apply a merge plan: keep keepId with the draft, delete the others, repoint their links; refused if a note changed.',
    input: MergePlanSchema,
    output: MergeResultSchema,
  }),
  'cleanup.modelStatus': defineMethod({
    summary: 'Whether a model is configured for 生成合并建议, and if not, why.',
    input: NoInputSchema,
    output: ModelStatusSchema,
  }),
  'cleanup.modelConfigure': defineMethod({
    summary:
      'Set the OpenAI-compatible model for merge drafts (base URL, model, API key kept outside config files).',
    input: z.object({
      baseUrl: z.string().url().nullable(),
      model: z.string().min(1).nullable(),
      /** undefined keeps the stored key; null removes it. */
      apiKey: z.string().min(1).nullable().optional(),
      timeoutMs: z.number().int().positive().max(600_000).optional(),
    }),
    output: ModelStatusSchema,
  }),
};
