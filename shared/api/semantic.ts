import { z } from 'zod';
import { EndpointSettingsSchema } from './endpoint.js';
import { defineMethod, NoInputSchema } from './define.js';

/** Semantic recall's settings as the app shows them: never the API key, only whether one is set. */
export const SemanticSettingsSchema = z.object({
  enabled: z.boolean(),
  ...EndpointSettingsSchema.shape,
  /** Whether semantic recall is on and fully configured (enabled, URL and model). */
  active: z.boolean(),
  /** Meaning's share of a fused score set for this model by hand; null: the default below. */
  weight: z.number().min(0).max(1).nullable(),
  /** The share used when none is set (fitted with the one model measured; docs/search.md). */
  defaultWeight: z.number().min(0).max(1),
});
export type SemanticSettings = z.infer<typeof SemanticSettingsSchema>;

const EndpointInputSchema = z.object({
  baseUrl: z.string().url('the endpoint URL is not a URL'),
  model: z.string().trim().min(1, 'the model name is empty'),
  /** undefined: the stored key, if it was entered for this URL; null: no key. */
  apiKey: z.string().min(1).nullable().optional(),
});

/** Why a test call failed, so the UI can say it in its own language. */
export const SemanticProblemSchema = z.enum([
  'down',
  'timeout',
  'unauthorized',
  'http',
  'bad_response',
  'dimensions',
]);
export type SemanticProblem = z.infer<typeof SemanticProblemSchema>;

export const SemanticTestSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), dimensions: z.number().int().positive() }),
  z.object({
    ok: z.literal(false),
    problem: SemanticProblemSchema,
    /** The endpoint's or the network's own words (English), for the details. */
    message: z.string(),
  }),
]);
export type SemanticTest = z.infer<typeof SemanticTestSchema>;

export const SemanticStatusSchema = z.object({
  active: z.boolean(),
  /** Notes whose vector is stored for the configured endpoint and model. */
  embedded: z.number().int().nonnegative(),
  /** Notes in the open scopes (the vectors catch up as searches and recalls run). */
  notes: z.number().int().nonnegative(),
  /** When a vectors file was last written (ms since epoch), null when none is. */
  updatedAt: z.number().nullable(),
  /** When the endpoint was found down (recall is by words until it answers), null when it answered last. */
  downSince: z.number().nullable(),
});
export type SemanticStatus = z.infer<typeof SemanticStatusSchema>;

export const semanticApi = {
  'semantic.settings': defineMethod({
    summary:
      'Semantic recall settings: on/off, embeddings endpoint URL and model, whether an API key is set.',
    input: NoInputSchema,
    output: SemanticSettingsSchema,
  }),
  'semantic.configure': defineMethod({
    summary:
      'Save semantic recall settings (memory-vectors/embeddings.json); the API key goes to its own owner-only file.',
    input: z.object({
      enabled: z.boolean(),
      baseUrl: z.string().url('the endpoint URL is not a URL').nullable(),
      model: z.string().trim().min(1, 'the model name is empty').nullable(),
      /** undefined keeps the stored key (dropped when the URL changes); null removes it. */
      apiKey: z.string().min(1).nullable().optional(),
      /**
       * Meaning's share of a fused score. undefined keeps the stored one while the endpoint and
       * model stay the same (a share measured for one model says nothing of another, so a new
       * model drops it); null: the default.
       */
      weight: z
        .number()
        .min(0, 'the share is at least 0')
        .max(1, 'the share is at most 1')
        .nullable()
        .optional(),
    }),
    output: SemanticSettingsSchema,
  }),
  'semantic.testConnection': defineMethod({
    summary: 'One embeddings call to the given endpoint and model: does it answer, and with usable vectors?',
    input: EndpointInputSchema,
    output: SemanticTestSchema,
  }),
  'semantic.status': defineMethod({
    summary: "The vector store: notes embedded for the configured model, last update, the endpoint's outage.",
    input: NoInputSchema,
    output: SemanticStatusSchema,
  }),
};
