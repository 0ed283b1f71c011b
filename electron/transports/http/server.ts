import http from 'node:http';
import { promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { AppEvent } from '../../../shared/events.js';
import { toErrorBody, type ErrorCode } from '../../../shared/errors.js';
import { invokeApi, type ApiHandlers } from '../../api/dispatch.js';
import { BRIDGE_SECRET_FRAGMENT, BRIDGE_SECRET_HEADER } from '../../../shared/web-bridge.js';
import { CONTENT_SECURITY_POLICY, isAllowedHost, isAllowedOrigin, secretsEqual } from './guard.js';
import type { ArchiveExchange } from './archive-routes.js';
import { contentType, resolveStaticFile } from './static-files.js';

/**
 * The web bridge: the API table over HTTP on loopback, plus the built renderer and a server-sent
 * event stream of change events. The same `invokeApi` validation as IPC and the CLI; no logic here
 * beyond mapping requests to calls.
 *
 *   POST /api/invoke   {"method": "...", "input": {...}}  → {"result": ...} | {"error": {code, message}}
 *   GET  /api/events   text/event-stream, one `data:` line of AppEvent JSON per event
 *   POST /api/archive/export  {"scope"}                      → the zip (a download), or an error
 *   POST /api/archive/import?scope=&onCollision=&name=  body: the zip → {"result": ArchiveOutcome}
 *   GET  /*            the renderer (index.html for paths without an extension)
 *
 * /api/* needs the per-run secret in the `x-memdesk-secret` header; the page reads it from the
 * URL's fragment (shared/web-bridge.ts). The renderer's static files hold no data and need none.
 */

export interface HttpBridgeOptions {
  handlers: ApiHandlers;
  /** Change events to push to open pages. Returns an unsubscribe function. */
  subscribe?: (listener: (event: AppEvent) => void) => () => void;
  /** The built renderer (vite build output). */
  staticDir: string;
  /** The per-run secret, sent by the page as the x-memdesk-secret header on /api/* requests. */
  secret: string;
  /** 0 picks a free port. */
  port: number;
  /** Always loopback; kept as an option only for IPv4/IPv6 choice in tests. */
  host?: '127.0.0.1';
  /** Largest request body accepted (bytes). */
  maxBodyBytes?: number;
  /** Export / import of a scope as a zip from the page (archive-routes.ts); absent: 404. */
  archives?: ArchiveExchange;
  /** Largest zip accepted for import (bytes). */
  maxArchiveBytes?: number;
}

export interface HttpBridge {
  url: string;
  port: number;
  close(): Promise<void>;
}

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_input: 400,
  refused: 403,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 413,
  io_error: 500,
  unavailable: 503,
  sync_error: 502,
  internal: 500,
};

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(text);
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(text + '\n');
}

async function readBytes(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error(`request body over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return (await readBytes(req, limit)).toString('utf8');
}

function sendError(res: http.ServerResponse, err: unknown): void {
  const body = toErrorBody(err);
  sendJson(res, STATUS_BY_CODE[body.error.code] ?? 500, body);
}

export async function startHttpBridge(opts: HttpBridgeOptions): Promise<HttpBridge> {
  const maxBody = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  const streams = new Set<http.ServerResponse>();
  let port = opts.port;

  const unsubscribe = opts.subscribe?.((event) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const res of streams) res.write(line);
  });

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, toErrorBody(err));
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!isAllowedHost(req.headers.host, port)) {
      sendText(res, 403, 'Refused: this bridge only answers requests addressed to 127.0.0.1 or localhost.');
      return;
    }
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    if (!isAllowedOrigin(origin, port)) {
      sendText(res, 403, 'Refused: requests from other web sites are not allowed.');
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const given = req.headers[BRIDGE_SECRET_HEADER];
    if (
      url.pathname.startsWith('/api/') &&
      !secretsEqual(typeof given === 'string' ? given : undefined, opts.secret)
    ) {
      sendText(
        res,
        401,
        "Not signed in to this bridge: open the URL printed by `npm run demo` (it carries this run's secret).",
      );
      return;
    }

    if (url.pathname === '/api/invoke') {
      if (req.method !== 'POST')
        return sendJson(res, 405, { error: { code: 'invalid_input', message: 'use POST' } });
      // A JSON content type cannot be sent cross-site without a preflight, which we never answer.
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(res, 415, {
          error: { code: 'invalid_input', message: 'send the request as application/json' },
        });
      }
      let payload: unknown;
      try {
        payload = JSON.parse(await readBody(req, maxBody));
      } catch (err) {
        return sendJson(res, 400, {
          error: { code: 'invalid_input', message: `bad request body: ${(err as Error).message}` },
        });
      }
      const { method, input } = (payload ?? {}) as { method?: unknown; input?: unknown };
      if (typeof method !== 'string') {
        return sendJson(res, 400, {
          error: { code: 'invalid_input', message: 'the request needs a "method" string' },
        });
      }
      try {
        const result = await invokeApi(opts.handlers, method, input);
        sendJson(res, 200, { result });
      } catch (err) {
        const body = toErrorBody(err);
        sendJson(res, STATUS_BY_CODE[body.error.code] ?? 500, body);
      }
      return;
    }

    if (url.pathname.startsWith('/api/archive/') && opts.archives) {
      if (req.method !== 'POST')
        return sendJson(res, 405, { error: { code: 'invalid_input', message: 'use POST' } });
      const type = String(req.headers['content-type'] ?? '');
      // Neither JSON nor a zip can be sent cross-site without a preflight, which we never answer.
      if (url.pathname === '/api/archive/export' && type.startsWith('application/json')) {
        try {
          const { scope } = (JSON.parse(await readBody(req, maxBody)) ?? {}) as { scope?: unknown };
          const zip = await opts.archives.exportZip(scope);
          res.writeHead(200, {
            ...BASE_HEADERS,
            'Content-Type': 'application/zip',
            'Content-Disposition': `attachment; filename="${zip.fileName}"`,
            'Cache-Control': 'no-store',
            'X-Memdesk-File': zip.fileName,
            'X-Memdesk-Notes': String(zip.notes),
          });
          res.end(zip.bytes);
        } catch (err) {
          sendError(res, err);
        }
        return;
      }
      if (url.pathname === '/api/archive/import' && type.startsWith('application/zip')) {
        try {
          const bytes = await readBytes(req, opts.maxArchiveBytes ?? 512 * 1024 * 1024);
          const q = url.searchParams;
          const outcome = await opts.archives.importZip(
            { scope: q.get('scope'), onCollision: q.get('onCollision'), fileName: q.get('name') },
            bytes,
          );
          sendJson(res, 200, { result: outcome });
        } catch (err) {
          sendError(res, err);
        }
        return;
      }
      return sendJson(res, 415, {
        error: { code: 'invalid_input', message: 'export takes application/json, import application/zip' },
      });
    }

    if (url.pathname === '/api/events') {
      res.writeHead(200, {
        ...BASE_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      const ping = setInterval(() => res.write(': ping\n\n'), 25_000);
      req.on('close', () => {
        clearInterval(ping);
        streams.delete(res);
      });
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');
    const file = await resolveStaticFile(opts.staticDir, url.pathname);
    if (!file) {
      if (url.pathname === '/' || !url.pathname.includes('.')) {
        return sendText(
          res,
          503,
          'The renderer is not built yet: run `npm run build:renderer`, then reload.',
        );
      }
      return sendText(res, 404, 'Not found.');
    }
    const data = await fs.readFile(file);
    const isHtml = file.endsWith('.html');
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': contentType(file),
      'Cache-Control': isHtml ? 'no-store' : 'public, max-age=3600',
      ...(isHtml ? { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}/#${BRIDGE_SECRET_FRAGMENT}=${encodeURIComponent(opts.secret)}`,
    async close() {
      unsubscribe?.();
      for (const res of streams) res.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
