import { z } from '../../../shared/zod-mini.js';

/**
 * What semantic recall needs of a model: texts in, one vector per text out. One interface, so any
 * provider fits; `OpenAiEmbeddings` speaks the OpenAI-compatible `/v1/embeddings` that Ollama,
 * llama.cpp, LM Studio and hosted providers serve.
 */
export interface EmbeddingsProvider {
  /** Names the vector space (endpoint and model): vectors of another space are never compared. */
  readonly space: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export class EmbeddingsError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'http' | 'bad_response',
    message: string,
    /** The HTTP status, when the endpoint answered with an error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingsError';
  }
}

const ResponseSchema = z.looseObject({
  data: z.array(
    z.looseObject({ index: z.optional(z.int().check(z.nonnegative())), embedding: z.array(z.number()) }),
  ),
});

export interface OpenAiEmbeddingsOptions {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama); `/embeddings` is appended. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export function embeddingsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/embeddings`;
}

/** The vector space of an endpoint and model: vectors of two spaces are never compared. */
export function embeddingsSpace(baseUrl: string, model: string): string {
  return `${embeddingsUrl(baseUrl)}#${model}`;
}

export class OpenAiEmbeddings implements EmbeddingsProvider {
  readonly space: string;

  constructor(private readonly o: OpenAiEmbeddingsOptions) {
    this.space = embeddingsSpace(o.baseUrl, o.model);
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await (this.o.fetch ?? fetch)(embeddingsUrl(this.o.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.o.model, input: texts }),
        signal: both,
      });
      text = await res.text();
    } catch (err) {
      if (timeout.aborted)
        throw new EmbeddingsError(
          'timeout',
          `the embeddings endpoint did not answer within ${this.o.timeoutMs} ms`,
        );
      throw new EmbeddingsError(
        'network',
        `cannot reach the embeddings endpoint at ${this.o.baseUrl}: ${(err as Error).message}`,
      );
    }
    if (!res.ok)
      throw new EmbeddingsError(
        'http',
        `the embeddings endpoint answered HTTP ${res.status}: ${text.slice(0, 200).replace(/\s+/g, ' ')}`,
        res.status,
      );
    let parsed;
    try {
      parsed = ResponseSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (!parsed?.success || parsed.data.data.length !== texts.length)
      throw new EmbeddingsError('bad_response', 'the embeddings endpoint did not answer one vector per text');
    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    parsed.data.data.forEach((d, i) => {
      out[d.index ?? i] = Float32Array.from(d.embedding);
    });
    if (out.some((v) => v === undefined || v.length === 0 || v.length !== out[0]!.length))
      throw new EmbeddingsError(
        'bad_response',
        'the embeddings endpoint answered vectors of different sizes',
      );
    return out;
  }
}
