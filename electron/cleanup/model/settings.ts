import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../shared/errors.js';
import { cleanupStateDir, readJsonState, writeJsonState } from '../state-dir.js';

/** How long a model draft may take before the manual draft is used instead. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

/**
 * The model for 生成合并建议: any OpenAI-compatible chat-completions endpoint (hosted, or a local
 * Ollama / llama.cpp / LM Studio). Kept in `$OHARNESS_HOME/memory-cleanup/model.json`; the API key
 * is not in here (see key-store.ts).
 */
export const ModelSettingsSchema = z.object({
  baseUrl: z.string().url().nullable().default(null),
  model: z.string().min(1).nullable().default(null),
  timeoutMs: z.number().int().positive().default(DEFAULT_MODEL_TIMEOUT_MS),
});
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;

export function modelSettingsPath(home: string): string {
  return path.join(cleanupStateDir(home), 'model.json');
}

export async function readModelSettings(home: string): Promise<ModelSettings> {
  const raw = await readJsonState(modelSettingsPath(home));
  const parsed = ModelSettingsSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new AppError(
      'io_error',
      `${modelSettingsPath(home)} is not valid model settings (${parsed.error.issues[0]?.message ?? 'bad shape'}); fix or remove it`,
    );
  }
  return parsed.data;
}

export async function writeModelSettings(home: string, settings: ModelSettings): Promise<void> {
  await writeJsonState(modelSettingsPath(home), settings);
}
