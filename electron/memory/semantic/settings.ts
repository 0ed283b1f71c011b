import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from '../../../shared/zod-mini.js';
import { AppError } from '../../../shared/errors.js';
import { readFileOrNull, writeFileAtomic } from '../atomic-write.js';

/**
 * Semantic recall's model: any OpenAI-compatible `/v1/embeddings` endpoint (a local Ollama or
 * llama.cpp server, or a hosted one), configured the way the model for 生成合并建议 is
 * (`memory-cleanup/model.json`): a base URL and a model name in a small JSON file under
 * `$OHARNESS_HOME`, here `memory-vectors/embeddings.json`. Off unless `enabled` is true and both are
 * set. An API key, when the endpoint needs one, is the first line of `memory-vectors/embeddings-key`
 * (never in a file that is shared or synced).
 */
export const EmbeddingsSettingsSchema = z.object({
  enabled: z._default(z.boolean(), false),
  baseUrl: z._default(z.nullable(z.url()), null),
  model: z._default(z.nullable(z.string().check(z.minLength(1))), null),
  /** A query's embedding must come back within this, or recall goes on with words alone. */
  timeoutMs: z._default(z.int().check(z.positive()), 3000),
  /** Notes sent per request when (re-)embedding. */
  batchSize: z._default(z.int().check(z.gte(1), z.lte(2048)), 64),
  /**
   * The share of a fused score given to meaning (search/fusion.ts): absent, the default fitted with
   * the one model measured; a model measured better by `bench/recall-public/fusion-fit.ts` earns more.
   */
  weight: z.optional(z.number().check(z.gte(0), z.lte(1))),
});
export type EmbeddingsSettings = z.infer<typeof EmbeddingsSettingsSchema>;

/** Per machine, beside memory-usage/: never inside a notes folder, never synced. */
export function vectorsDir(home: string): string {
  return path.join(home, 'memory-vectors');
}

export function embeddingsSettingsPath(home: string): string {
  return path.join(vectorsDir(home), 'embeddings.json');
}

/** The settings, defaults when the file is absent; a clear error when it is malformed. */
export async function readEmbeddingsSettings(home: string): Promise<EmbeddingsSettings> {
  const file = embeddingsSettingsPath(home);
  const text = await readFileOrNull(file);
  let raw: unknown = {};
  try {
    if (text !== null) raw = JSON.parse(text);
  } catch {
    throw new AppError('io_error', `${file} is not JSON; fix or remove it`);
  }
  const parsed = EmbeddingsSettingsSchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError(
      'io_error',
      `${file} is not valid embeddings settings (${parsed.error.issues[0]?.message ?? 'bad shape'}); fix or remove it`,
    );
  return parsed.data;
}

/** Replaces the settings file atomically (the app's semantic recall panel, `semantic.configure`). */
export async function writeEmbeddingsSettings(home: string, settings: EmbeddingsSettings): Promise<void> {
  await fs.mkdir(vectorsDir(home), { recursive: true });
  await writeFileAtomic(embeddingsSettingsPath(home), JSON.stringify(settings, null, 2) + '\n');
}

/** Owner-only (0600), written like the 生成合并建议 model's key file (cleanup/model/key-store.ts). */
export function embeddingsKeyPath(home: string): string {
  return path.join(vectorsDir(home), 'embeddings-key');
}

/** The API key for the endpoint, or null (local servers need none). */
export async function readEmbeddingsKey(home: string): Promise<string | null> {
  const text = await readFileOrNull(embeddingsKeyPath(home));
  return text?.split('\n')[0]?.trim() || null;
}

/** Stores the key (null removes it): owner-only from the first byte, atomic like every write. */
export async function writeEmbeddingsKey(home: string, key: string | null): Promise<void> {
  if (key === null) {
    await fs.rm(embeddingsKeyPath(home), { force: true });
    return;
  }
  await fs.mkdir(vectorsDir(home), { recursive: true, mode: 0o700 });
  await writeFileAtomic(embeddingsKeyPath(home), key + '\n', { mode: 0o600 });
}

/** Whether semantic recall is switched on and fully configured. */
export function semanticConfigured(
  s: EmbeddingsSettings,
): s is EmbeddingsSettings & { baseUrl: string; model: string } {
  return s.enabled && s.baseUrl !== null && s.model !== null;
}
