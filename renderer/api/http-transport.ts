import { AppEventSchema, type AppEvent } from '../../shared/events.js';
import type { InvokeReply } from '../../shared/ipc-contract.js';
import { errorFromUnknownBody } from './errors.js';
import type { Transport } from './transport.js';

export interface HttpTransportOptions {
  /** '' in the page (same origin); an absolute http://127.0.0.1:PORT in Node tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Extra headers; Node tests pass the bridge cookie here (a browser sends it itself). */
  headers?: Record<string, string>;
  /** Browser only; absent in Node. */
  EventSource?: typeof EventSource;
}

/** The web bridge (electron/transports/http): POST /api/invoke and an SSE stream on /api/events. */
export function createHttpTransport(opts: HttpTransportOptions = {}): Transport {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const connectionListeners = new Set<(connected: boolean) => void>();
  const eventListeners = new Set<(event: AppEvent) => void>();
  let source: EventSource | null = null;

  function ensureStream(): void {
    const ES = opts.EventSource ?? (typeof EventSource === 'undefined' ? undefined : EventSource);
    if (source || !ES) return;
    source = new ES(`${base}/api/events`, { withCredentials: true });
    source.onopen = () => connectionListeners.forEach((l) => l(true));
    source.onerror = () => connectionListeners.forEach((l) => l(false));
    source.onmessage = (msg: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      // Event kinds this build does not know yet are passed on as-is: they still invalidate queries.
      const parsed = AppEventSchema.safeParse(data);
      const event = (parsed.success ? parsed.data : data) as AppEvent;
      if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string')
        return;
      eventListeners.forEach((l) => l(event));
    };
  }

  return {
    kind: 'http',
    async invoke(method, input): Promise<InvokeReply> {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/invoke`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...opts.headers },
          credentials: 'same-origin',
          body: JSON.stringify({ method, input: input ?? {} }),
        });
      } catch (err) {
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
      return { ok: false, error: { code: err.code, message: err.message } };
    },
    subscribe(listener) {
      eventListeners.add(listener);
      ensureStream();
      return () => eventListeners.delete(listener);
    },
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
    return null;
  }
}
