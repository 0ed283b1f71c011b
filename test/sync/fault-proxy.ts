import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small fault-injecting HTTP proxy on loopback in front of the real sync server (not a mock:
 * every request that passes reaches the real server). Per request, `decide` picks a fault:
 *   pass          forward as is
 *   error500      answer 500 without forwarding (nothing applied)
 *   rate429       answer 429 with Retry-After (nothing applied)
 *   drop          forward, let the server apply it, then cut the connection before the answer
 *   hold          forward only when released (to abort a request in flight); `held` resolves
 *   slow          forward after `delayMs` (a slow instance or network)
 * `target` may be a function: the upstream per request (several server instances behind one
 * address, as a load balancer spreads them). An upstream that does not answer (a dead instance)
 * cuts the client's connection, as a balancer without health checks does.
 */
export type Fault = 'pass' | 'error500' | { rate429: number } | 'drop' | 'hold' | { delayMs: number };

export interface FaultProxy {
  url: string;
  seen: Array<{ method: string; url: string; fault: string }>;
  /** Resolves with the number of requests held so far, each time one is held. */
  onHold: ((count: number) => void) | null;
  /** Closed by the client while held (an aborted request). */
  abortedWhileHeld: number;
  release(): void;
  close(): Promise<void>;
}

/**
 * Headers that describe one connection (RFC 9110 §7.6.1), not the message: a proxy does not pass
 * them on. Passing the server's `keep-alive: timeout=65` on told the client to keep idle sockets
 * for 65 s that this proxy closes after its own timeout, so a round reusing one could end
 * "offline" (the soak's seed 20077, not reproducible); the client now hears this proxy's timeout.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startFaultProxy(
  target: string | (() => string),
  decide: (req: { method: string; url: string; index: number }) => Fault,
): Promise<FaultProxy> {
  const upstreamOf = (): URL => new URL(typeof target === 'string' ? target : target());
  const held: Array<() => void> = [];
  let index = 0;
  const proxy: FaultProxy = {
    url: '',
    seen: [],
    onHold: null,
    abortedWhileHeld: 0,
    release: () => {
      for (const go of held.splice(0)) go();
    },
    close: async () => {
      proxy.release();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const forward = (
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse,
    drop: boolean,
  ): void => {
    const upstream = upstreamOf();
    const up = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => {
          if (drop) {
            res.socket?.destroy();
            return;
          }
          res.writeHead(upRes.statusCode ?? 502, endToEnd(upRes.headers));
          res.end(Buffer.concat(chunks));
        });
      },
    );
    up.on('error', () => res.socket?.destroy());
    up.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fault = decide({ method: req.method ?? 'GET', url: req.url ?? '/', index: index++ });
      proxy.seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        fault: typeof fault === 'string' ? fault : 'rate429' in fault ? 'rate429' : 'slow',
      });
      if (fault === 'pass') return forward(req, body, res, false);
      if (typeof fault === 'object' && 'delayMs' in fault) {
        setTimeout(() => forward(req, body, res, false), fault.delayMs);
        return;
      }
      if (fault === 'drop') return forward(req, body, res, true);
      if (fault === 'error500') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('injected failure');
        return;
      }
      if (fault === 'hold') {
        let done = false;
        res.on('close', () => {
          if (!done) proxy.abortedWhileHeld++;
        });
        held.push(() => {
          done = true;
          if (!res.destroyed) forward(req, body, res, false);
        });
        proxy.onHold?.(held.length);
        return;
      }
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fault.rate429) });
      res.end(
        JSON.stringify({
          error: {
            code: 'rate_limited',
            message: 'too many requests (injected)',
            details: { retryAfterSeconds: fault.rate429 },
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
