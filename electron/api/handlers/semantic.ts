import { AppError } from '../../../shared/errors.js';
import type { SemanticSettings, SemanticTest } from '../../../shared/api/semantic.js';
import { insecureUrlProblem } from '../../../shared/secure-url.js';
import {
  EmbeddingsError,
  embeddingsSpace,
  OpenAiEmbeddings,
} from '../../memory/semantic/embeddings-client.js';
import { SEMANTIC_WEIGHT } from '../../memory/search/fusion.js';
import { writeEndpointState } from '../../memory/semantic/endpoint-state.js';
import {
  readEmbeddingsKey,
  readEmbeddingsSettings,
  semanticConfigured,
  vectorsDir,
  writeEmbeddingsKey,
  writeEmbeddingsSettings,
} from '../../memory/semantic/settings.js';
import { vectorStoreStatus } from '../../memory/semantic/store-status.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type SemanticHandlers = Pick<
  ApiHandlers,
  'semantic.settings' | 'semantic.configure' | 'semantic.testConnection' | 'semantic.status'
>;

/** A test call may meet a model still loading (Ollama loads it on first use): longer than a query's 3 s. */
const TEST_TIMEOUT_MS = 20_000;

/** Notes' text and the key go to the endpoint: https://, or http:// to this machine only. */
function checkUrl(baseUrl: string): void {
  const problem = insecureUrlProblem(new URL(baseUrl));
  if (problem) throw new AppError('invalid_input', `the embeddings endpoint URL ${problem}`);
}

function problemOf(err: EmbeddingsError): Extract<SemanticTest, { ok: false }>['problem'] {
  if (err.reason === 'network') return 'down';
  if (err.reason === 'timeout') return 'timeout';
  if (err.reason === 'http') return err.status === 401 || err.status === 403 ? 'unauthorized' : 'http';
  return /different sizes/.test(err.message) ? 'dimensions' : 'bad_response';
}

export function createSemanticHandlers(ctx: HandlerContext): SemanticHandlers {
  const { home } = ctx.core;

  async function settings(): Promise<SemanticSettings> {
    const s = await readEmbeddingsSettings(home);
    return {
      enabled: s.enabled,
      baseUrl: s.baseUrl,
      model: s.model,
      hasApiKey: (await readEmbeddingsKey(home)) !== null,
      active: semanticConfigured(s),
      weight: s.weight ?? null,
      defaultWeight: SEMANTIC_WEIGHT,
    };
  }

  return {
    'semantic.settings': settings,
    'semantic.configure': async (input) => {
      if (input.enabled && (input.baseUrl === null || input.model === null))
        throw new AppError(
          'invalid_input',
          'to turn semantic recall on, give the endpoint URL and the model',
        );
      if (input.baseUrl !== null) checkUrl(input.baseUrl);
      const current = await readEmbeddingsSettings(home);
      const sameModel = input.baseUrl === current.baseUrl && input.model === current.model;
      const weight = input.weight === undefined ? (sameModel ? current.weight : undefined) : input.weight;
      // timeoutMs and batchSize (set in the file by hand) are kept; a weight only for its model.
      const { weight: _stored, ...kept } = current;
      await writeEmbeddingsSettings(home, {
        ...kept,
        enabled: input.enabled,
        baseUrl: input.baseUrl,
        model: input.model,
        ...(weight !== undefined && weight !== null ? { weight } : {}),
      });
      // The key goes only to the URL it was entered for: a new URL without a new key drops it.
      if (input.apiKey !== undefined) await writeEmbeddingsKey(home, input.apiKey);
      else if (input.baseUrl !== current.baseUrl) await writeEmbeddingsKey(home, null);
      // A new setting is tried at once, not after the last endpoint's outage wait.
      await writeEndpointState(vectorsDir(home), { downSince: null, triedAt: 0 });
      return settings();
    },
    'semantic.testConnection': async ({ baseUrl, model, apiKey }) => {
      checkUrl(baseUrl);
      const saved = await readEmbeddingsSettings(home);
      const key =
        apiKey !== undefined ? apiKey : saved.baseUrl === baseUrl ? await readEmbeddingsKey(home) : null;
      const provider = new OpenAiEmbeddings({ baseUrl, model, apiKey: key, timeoutMs: TEST_TIMEOUT_MS });
      let vector: Float32Array;
      try {
        [vector] = (await provider.embed(['Memory Desk: test of the embeddings endpoint'])) as [Float32Array];
      } catch (err) {
        if (!(err instanceof EmbeddingsError)) throw err;
        return { ok: false, problem: problemOf(err), message: err.message };
      }
      const stored = (await vectorStoreStatus(ctx.core, embeddingsSpace(baseUrl, model))).dimensions;
      if (stored !== null && stored !== vector.length)
        return {
          ok: false,
          problem: 'dimensions',
          message: `the endpoint answers vectors of ${vector.length} numbers, but this model's stored vectors have ${stored} (remove memory-vectors/*.vec to embed the notes again)`,
        };
      return { ok: true, dimensions: vector.length };
    },
    'semantic.status': async () => {
      const { active, embedded, notes, updatedAt, downSince } = await vectorStoreStatus(ctx.core);
      return { active, embedded, notes, updatedAt, downSince };
    },
  };
}
