import { AppEventSchema, type AppEvent } from '../../shared/events.js';
import type { InvokeReply } from '../../shared/ipc-contract.js';
import { errorFromUnknownBody } from './errors.js';
import { httpArchive } from './http-archive.js';
import type { Transport } from './transport.js';
import { onUnexpectedError } from './unexpected-error.js';

export interface HttpTransportOptions {
  /** '' in the page (same origin); an absolute http://127.0.0.1:PORT in Node tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Sent with every request: the bridge's secret header (client.ts puts it here). */
  headers?: Record<string, string>;
  /** Open the event stream on subscribe; by default only in a page (Node tests call the API only). */
  events?: boolean;
}

/** Wait before reconnecting the event stream after it dropped. */
const RECONNECT_MS = 2000;

/** The web bridge (electron/transports/http): POST /api/invoke and an SSE stream on /api/events. */
export function createHttpTransport(opts: HttpTransportOptions = {}): Transport {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const connectionListeners = new Set<(connected: boolean) => void>();
  const eventListeners = new Set<(event: AppEvent) => void>();
  const wantEvents = opts.events ?? typeof document !== 'undefined';
  let streaming = false;

  function deliver(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      onUnexpectedError(err, 'events: parse'); // the bridge sends JSON only
      return;
    }
    // Event kinds this build does not know yet are passed on as-is: they still invalidate queries.
    const parsed = AppEventSchema.safeParse(data);
    const event = (parsed.success ? parsed.data : data) as AppEvent;
    if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') return;
    eventListeners.forEach((l) => l(event));
  }

  /**
   * Server-sent events read with fetch, not EventSource: EventSource cannot send the secret header.
   * Reconnects while anyone listens.
   */
  async function stream(): Promise<void> {
    while (eventListeners.size > 0) {
      try {
        const res = await doFetch(`${base}/api/events`, { headers: { ...opts.headers }, cache: 'no-store' });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        connectionListeners.forEach((l) => l(true));
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          buffer += chunk.value;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (data) deliver(data);
          }
        }
      } catch {
        // dropped or refused: said below, then tried again
      }
      connectionListeners.forEach((l) => l(false));
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
    streaming = false;
  }

  function ensureStream(): void {
    if (streaming || !wantEvents) return;
    streaming = true;
    void stream();
  }

  return {
    kind: 'http',
    async invoke(method, input, signal): Promise<InvokeReply> {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/invoke`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...opts.headers },
          body: JSON.stringify({ method, input: input ?? {} }),
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        // Cancelled by the caller: not the bridge's fault, and nobody waits for a reply.
        if (signal?.aborted) throw signal.reason;
        return {
          ok: false,
          error: {
            code: 'unavailable',
            message: `Memory Desk's bridge is not reachable (${(err as Error).message}). Is \`npm run demo\` still running?`,
          },
        };
      }
      const text = await res.text();
      const body = parseJson(text);
      if (res.ok && body && typeof body === 'object' && 'result' in body)
        return { ok: true, result: (body as { result: unknown }).result };
      const err = errorFromUnknownBody(res.status, body, body === null ? text : '');
      return {
        ok: false,
        error: {
          code: err.code,
          message: err.message,
          ...(err.details !== undefined ? { details: err.details } : {}),
        },
      };
    },
    subscribe(listener) {
      eventListeners.add(listener);
      ensureStream();
      return () => eventListeners.delete(listener);
    },
    archive: (request) => httpArchive({ base, headers: { ...opts.headers }, fetch: doFetch }, request),
    onMenuCommand() {
      // A browser tab has no native menu; the page's own shortcuts and buttons cover these.
      return () => undefined;
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null; // not JSON (a proxy's or server's error page): the caller shows the text itself
  }
}
