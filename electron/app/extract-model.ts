import type { ExtractModel } from '../agents/extract/extract.js';
import { ChatError, chatComplete } from '../cleanup/model/chat-client.js';
import { FileKeyStore, type KeyStore } from '../cleanup/model/key-store.js';
import { extractJsonObject } from '../cleanup/model/model-draft.js';
import { readModelSettings } from '../cleanup/model/settings.js';

/**
 * Extraction's model: the OpenAI-compatible endpoint set up for 生成合并建议
 * (`$OHARNESS_HOME/memory-cleanup/model.json`), its key from the app's key store or the CLI's key
 * file. null when none is set up. The model's own timeout applies when shorter than the budget.
 */
export async function configuredExtractModel(
  home: string,
  keyStore?: KeyStore,
): Promise<ExtractModel | null> {
  const settings = await readModelSettings(home);
  const { baseUrl, model } = settings;
  if (!baseUrl || !model) return null;
  const keys = keyStore ?? new FileKeyStore(home);
  return {
    async askJson(messages, budgetMs) {
      try {
        const content = await chatComplete({
          baseUrl,
          model,
          apiKey: await keys.get(),
          messages,
          timeoutMs: Math.min(settings.timeoutMs, budgetMs),
        });
        return extractJsonObject(content);
      } catch (err) {
        throw err instanceof ChatError
          ? err
          : new Error(`the model request failed: ${(err as Error).message}`);
      }
    },
  };
}
