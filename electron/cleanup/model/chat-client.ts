import { z } from 'zod';

/**
 * A minimal OpenAI-compatible chat-completions client (POST {baseUrl}/chat/completions). Works
 * with hosted providers and local servers (Ollama, llama.cpp, LM Studio) alike. Never throws
 * anything but ChatError, whose message is one line a person can read.
 */
export class ChatError extends Error {
  constructor(
    readonly reason: 'timeout' | 'cancelled' | 'http' | 'network' | 'bad_response',
    message: string,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  messages: ChatMessage[];
  timeoutMs: number;
  /** The caller's cancel (the page's cancel button). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

const ChatResponseSchema = z.looseObject({
  choices: z
    .array(z.looseObject({ message: z.looseObject({ content: z.string().nullable().optional() }) }))
    .min(1),
});

/** Answers larger than this are not read (a draft of one note is far smaller). */
const MAX_RESPONSE_CHARS = 2 * 1024 * 1024;

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

export async function chatComplete(req: ChatRequest): Promise<string> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
  const doFetch = req.fetch ?? fetch;
  const why = (): ChatError =>
    req.signal?.aborted
      ? new ChatError('cancelled', 'the model draft was cancelled')
      : new ChatError('timeout', `the model did not answer within ${Math.round(req.timeoutMs / 100) / 10} s`);
  try {
    let res: Response;
    try {
      res = await doFetch(chatCompletionsUrl(req.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: req.model, messages: req.messages, temperature: 0.2, stream: false }),
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw why();
      throw new ChatError('network', `cannot reach the model at ${req.baseUrl}: ${(err as Error).message}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw why();
      throw new ChatError('network', `the model's answer was cut off: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const detail = text.slice(0, 200).replace(/\s+/g, ' ').trim();
      throw new ChatError('http', `the model answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
    }
    if (text.length > MAX_RESPONSE_CHARS)
      throw new ChatError('bad_response', 'the model answer is too large');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ChatError('bad_response', 'the model answer is not chat-completions JSON');
    }
    const parsed = ChatResponseSchema.safeParse(json);
    const content = parsed.success ? parsed.data.choices[0]?.message.content : undefined;
    if (typeof content !== 'string')
      throw new ChatError('bad_response', 'the model answer has no message content');
    return content;
  } finally {
    clearTimeout(timer);
  }
}
