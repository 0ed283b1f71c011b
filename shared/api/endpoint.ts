import { z } from 'zod';

/**
 * An OpenAI-compatible endpoint as the app shows it (semantic recall's embeddings, 待整理's model for
 * merge drafts): its URL and model, and never its API key, only whether one is set.
 */
export const EndpointSettingsSchema = z.object({
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  hasApiKey: z.boolean(),
});
