import type http from 'node:http';
import { escapeHtml } from '../../shared/escape-html.js';

/**
 * The built-in provider's pages, in the system browser: account name and password, and the
 * device sign-in pages (device-pages.ts). Plain HTML, no script; they cannot be framed
 * (clickjacking) and load nothing from elsewhere.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

export function page(title: string, inner: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>
body{font:16px system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.error{color:#a00}</style></head>
<body><h1>${escapeHtml(title)}</h1>${inner}</body></html>`;
}

export function sendLoginPage(
  res: http.ServerResponse,
  uid: string,
  options: { deviceName: string; error?: string; name?: string; status?: number },
): void {
  const body = page(
    'Sign in to Memory Desk sync',
    `<p>Signing in <strong>${escapeHtml(options.deviceName)}</strong>.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="name">Account name</label><input id="name" name="name" autocomplete="username" required autofocus value="${escapeHtml(options.name ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  );
  res.writeHead(options.status ?? 200, PAGE_HEADERS).end(body);
}

export function sendMessagePage(
  res: http.ServerResponse,
  status: number,
  title: string,
  message: string,
): void {
  res.writeHead(status, PAGE_HEADERS).end(page(title, `<p>${escapeHtml(message)}</p>`));
}

/** An `application/x-www-form-urlencoded` body of at most `maxBytes`. */
export async function readForm(
  req: http.IncomingMessage,
  maxBytes = 16 * 1024,
): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
