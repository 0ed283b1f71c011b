import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../../../shared/escape-html.js';

/**
 * The redirect target of a native app's sign-in (RFC 8252 §7.3): a one-shot HTTP listener on
 * 127.0.0.1, on a port the system picks, at `/callback`. It answers the browser with a short page
 * and hands the full callback URL over; nothing else is served.
 */
export interface LoopbackRedirect {
  redirectUri: string;
  /** Resolves with the first callback URL; rejects on `signal` or timeout. */
  callback: Promise<URL>;
  /** Shows the outcome in the browser tab, then stops listening. */
  finish(outcome: { ok: true } | { ok: false; message: string }): void;
  close(): void;
}

export async function openLoopbackRedirect(options: {
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<LoopbackRedirect> {
  let deliver!: (url: URL) => void;
  let fail!: (err: Error) => void;
  const callback = new Promise<URL>((resolve, reject) => {
    deliver = resolve;
    fail = reject;
  });
  let pending: http.ServerResponse | null = null;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    if (req.method !== 'GET' || url.pathname !== '/callback' || pending) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    pending = res;
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const close = (): void => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  const timer = setTimeout(() => {
    fail(new Error('the sign-in was not finished in the browser in time; start it again'));
    close();
  }, options.timeoutMs);
  options.signal?.addEventListener('abort', () => {
    fail(new Error('the sign-in was cancelled'));
    close();
  });
  callback.catch(() => undefined); // its caller awaits it; this only keeps an unawaited failure from crashing
  return {
    redirectUri,
    callback,
    close,
    finish(outcome) {
      const text = outcome.ok
        ? 'Signed in to Memory Desk sync. You can close this tab.'
        : `Sign-in failed: ${outcome.message}`;
      const res = pending as http.ServerResponse | null;
      res
        ?.writeHead(outcome.ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'",
        })
        .end(
          `<!doctype html><meta charset="utf-8"><title>Memory Desk</title><p>${escapeHtml(text)}</p>`,
          close,
        );
      if (!res) close();
    },
  };
}
