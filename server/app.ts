import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import {
  CommitRequestSchema,
  DEFAULT_SYNC_QUOTAS,
  EraseRequestSchema,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_MIN_VERSION,
  SYNC_PROTOCOL_VERSION,
  SYNC_ROUTES,
  SnapshotRequestSchema,
  type SyncLimits,
  type SyncQuotas,
} from '../shared/sync-protocol.js';
import { adminKeyMatches, bearerToken, createTokenVerifier, logLabel, type VerifiedUser } from './auth.js';
import { type Caller, KeyedMutex, type ServerDeps } from './context.js';
import { DEFAULT_ENTITLEMENTS, type Entitlements, planFromClaim, planLimits } from './entitlements.js';
import { ManifestCache } from './manifest-cache.js';
import { RateLimiter, type RateLimitConfig } from './rate-limit.js';
import { commit } from './routes/commit.js';
import { erase } from './routes/erase.js';
import { snapshot } from './routes/snapshot.js';
import { eraseMarkerKey } from './storage-keys.js';
import { FsStorage } from './storage/fs-storage.js';
import { S3Storage, type S3StorageOptions } from './storage/s3-storage.js';
import { type StorageAdapter, StorageUnavailableError } from './storage/storage.js';
import { SyncError } from './sync-error.js';

export const SERVER_NAME = 'memory-desk-sync';
export const SERVER_VERSION = '0.1.0';

export interface SyncServerOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** An adapter, or the settings of one of the two built in. */
  storage: StorageAdapter | { kind: 'fs'; dir: string } | ({ kind: 's3' } & S3StorageOptions);
  /** HS256 secret for user tokens (OHARNESS_SYNC_JWT_SECRET) … */
  jwtSecret?: string;
  /** … or the JWKS URL of an external identity provider (OHARNESS_SYNC_JWKS_URL). */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** OHARNESS_SYNC_ADMIN_KEY; without it the erase route answers `forbidden`. */
  adminKey?: string;
  /** The clock (token expiry, tombstone window, rate limit). */
  now?: () => number;
  /** Per-account token bucket; null turns rate limiting off. Default 120 requests a minute. */
  rateLimit?: RateLimitConfig | null;
  quotas?: Partial<SyncQuotas>;
  entitlements?: Entitlements;
  /** The protocol versions served; tests lower `current` to play an old server. */
  protocol?: { min: number; current: number };
  /** Largest request body accepted (default: a full commit of maximum-size notes, plus room). */
  maxRequestBytes?: number;
  maxCasAttempts?: number;
  /** One line per request and the startup lines; never tokens, keys or note contents. */
  log?: (line: string) => void;
}

export interface RunningSyncServer {
  url: string;
  port: number;
  storage: StorageAdapter;
  /** The storage problem found at startup, if any (the server runs and answers storage_unavailable). */
  storageProblem: string | null;
  close(): Promise<void>;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { requests: 120, windowMs: 60_000 };

type Route = { method: 'GET' | 'POST'; kind: 'identity' | 'snapshot' | 'commit' | 'erase' };
const ROUTES: Record<string, Route> = {
  [SYNC_ROUTES.identity]: { method: 'GET', kind: 'identity' },
  [SYNC_ROUTES.snapshot]: { method: 'POST', kind: 'snapshot' },
  [SYNC_ROUTES.commit]: { method: 'POST', kind: 'commit' },
  [SYNC_ROUTES.erase]: { method: 'POST', kind: 'erase' },
};

export function createStorage(spec: SyncServerOptions['storage']): StorageAdapter {
  if ('get' in spec) return spec;
  if (spec.kind === 'fs') return new FsStorage(spec.dir);
  const { kind: _kind, ...options } = spec;
  return new S3Storage(options);
}

/** Starts the sync server; resolves once it listens. */
export async function startSyncServer(options: SyncServerOptions): Promise<RunningSyncServer> {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  const storage = createStorage(options.storage);
  const quotas: SyncQuotas = { ...DEFAULT_SYNC_QUOTAS, ...options.quotas };
  const deps: ServerDeps = {
    storage,
    manifests: new ManifestCache(storage),
    now,
    quotas,
    entitlements: options.entitlements ?? DEFAULT_ENTITLEMENTS,
    protocol: options.protocol ?? { min: SYNC_PROTOCOL_MIN_VERSION, current: SYNC_PROTOCOL_VERSION },
    scopeLock: new KeyedMutex(),
    maxCasAttempts: options.maxCasAttempts ?? 100,
  };
  const maxRequestBytes =
    options.maxRequestBytes ?? quotas.changesPerCommit * quotas.noteBytes * 1.25 + 1024 * 1024;
  const verify = createTokenVerifier({
    now,
    ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
    ...(options.jwksUrl ? { jwksUrl: options.jwksUrl } : {}),
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  });
  const limiter =
    options.rateLimit === null ? null : new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, now);
  const erased = new Set<string>(); // accounts known to be erased (permanent, so cached)

  let storageProblem: string | null = null;
  try {
    await storage.check();
    log(`storage: ${storage.describe()}`);
  } catch (err) {
    storageProblem = (err as Error).message;
    log(`storage UNAVAILABLE: ${storageProblem} — every request will be answered 503 storage_unavailable`);
  }
  if (!options.jwtSecret && !options.jwksUrl) {
    log('no OHARNESS_SYNC_JWT_SECRET or OHARNESS_SYNC_JWKS_URL: every user request will be refused');
  }

  const limitsFor = (user: VerifiedUser): SyncLimits => {
    const plan = planFromClaim(user.ent, deps.entitlements);
    return { plan, quota: quotas, planLimits: planLimits(plan, deps.entitlements) };
  };

  const isErased = async (sub: string): Promise<boolean> => {
    if (erased.has(sub)) return true;
    if (await storage.get(eraseMarkerKey(sub))) {
      erased.add(sub);
      return true;
    }
    return false;
  };

  const handle = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{ status: number; who: string }> => {
    let limits: SyncLimits | undefined;
    let who = '-';
    try {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const route = ROUTES[path];
      if (!route) throw new SyncError('not_found', `There is no ${path} on this sync server.`);
      if (req.method !== route.method) {
        throw new SyncError(
          'method_not_allowed',
          `${path} takes ${route.method}, not ${req.method}.`,
          undefined,
          { allow: route.method },
        );
      }
      const token = bearerToken(req.headers.authorization);

      if (route.kind === 'erase') {
        who = 'admin';
        if (!token)
          throw new SyncError('unauthorized', 'The erase route needs the admin key as a bearer token.');
        if (!options.adminKey)
          throw new SyncError(
            'forbidden',
            'Erasing is disabled on this server: OHARNESS_SYNC_ADMIN_KEY is not set.',
          );
        if (!adminKeyMatches(token, options.adminKey))
          throw new SyncError('forbidden', 'That is not the admin key of this sync server.');
        const body = await readJson(req, 64 * 1024, EraseRequestSchema);
        const result = await erase(deps, body.userId, (sub) => erased.add(sub));
        return { status: sendJson(res, 200, result, deps), who };
      }

      if (!token) throw new SyncError('unauthorized', 'Sign in first: this request has no access token.');
      const user = await verify(token);
      who = logLabel(user.sub);
      limits = limitsFor(user);
      const protocol = checkProtocol(req.headers[SYNC_PROTOCOL_HEADER], deps.protocol);
      if (limiter) {
        const wait = limiter.take(user.sub);
        if (wait > 0) {
          throw new SyncError(
            'rate_limited',
            `Sync ran too often; it will try again in ${wait} s.`,
            { retryAfterSeconds: wait },
            { 'retry-after': String(wait) },
          );
        }
      }
      if (await isErased(user.sub)) {
        throw new SyncError(
          'account_erased',
          'This account has been deleted; its notes can no longer be synced.',
        );
      }
      const caller: Caller = { sub: user.sub, limits, protocol };

      switch (route.kind) {
        case 'identity':
          return {
            status: sendJson(
              res,
              200,
              {
                userId: user.sub,
                protocol: deps.protocol,
                server: { name: SERVER_NAME, version: SERVER_VERSION },
                limits,
              },
              deps,
            ),
            who,
          };
        case 'snapshot': {
          const body = await readJson(req, 4 * 1024 * 1024, SnapshotRequestSchema);
          return { status: sendJson(res, 200, await snapshot(deps, caller, body), deps), who };
        }
        case 'commit': {
          const body = await readJson(req, maxRequestBytes, CommitRequestSchema);
          return { status: sendJson(res, 200, await commit(deps, caller, body), deps), who };
        }
      }
    } catch (err) {
      const error = toSyncError(err, log);
      const status = sendJson(
        res,
        error.status,
        {
          error: {
            code: error.code,
            message: error.message,
            ...(error.details !== undefined ? { details: error.details } : {}),
          },
          ...(limits ? { limits } : {}),
        },
        deps,
        error.headers,
      );
      return { status, who };
    }
  };

  const server = http.createServer((req, res) => {
    const started = now();
    handle(req, res)
      .then(({ status, who }) =>
        log(`${req.method} ${pathOf(req)} ${status} ${Math.max(0, now() - started)}ms account=${who}`),
      )
      .catch((err: unknown) => {
        log(`${req.method} ${pathOf(req)} failed: ${(err as Error).message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  log(`memory sync server listening on ${url} (protocol ${deps.protocol.min}–${deps.protocol.current})`);

  return {
    url,
    port: address.port,
    storage,
    storageProblem,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The path only: a query string could carry something that must not reach the log. */
function pathOf(req: http.IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!.slice(0, 200);
}

function checkProtocol(
  header: string | string[] | undefined,
  range: { min: number; current: number },
): number {
  const text = Array.isArray(header) ? header[0] : header;
  const version = text !== undefined && /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : null;
  if (version === null || version < range.min) {
    throw new SyncError(
      'upgrade_required',
      `This version of the app is too old for this sync server (it needs sync protocol ${range.min} or newer). Update the app.`,
      range,
    );
  }
  if (version > range.current) {
    throw new SyncError(
      'protocol_unsupported',
      `This sync server is older than the app (it speaks sync protocol up to ${range.current}, the app ${version}). Ask whoever runs it to upgrade it.`,
      range,
    );
  }
  return version;
}

/** Reads and validates a JSON body of at most `maxBytes`. */
async function readJson<S extends z.ZodType>(
  req: http.IncomingMessage,
  maxBytes: number,
  schema: S,
): Promise<z.output<S>> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new SyncError(
      'request_too_large',
      `The request is ${declared} bytes; this server accepts at most ${Math.floor(maxBytes)}.`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      req.resume();
      throw new SyncError(
        'request_too_large',
        `The request is over ${Math.floor(maxBytes)} bytes, the most this server accepts.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  let data: unknown;
  try {
    data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new SyncError('invalid_request', 'The request body is not valid JSON.');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
    throw new SyncError(
      'invalid_request',
      `The request is not valid (${where}): ${issue?.message ?? 'unknown problem'}.`,
    );
  }
  return parsed.data;
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  deps: ServerDeps,
  headers: Record<string, string> = {},
): number {
  const text = JSON.stringify(body);
  res.sendDate = false; // keeps a no-change poll small; clients use their own clock
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    [SYNC_PROTOCOL_HEADER]: String(deps.protocol.current),
    ...headers,
  });
  res.end(text);
  return status;
}

function toSyncError(err: unknown, log: (line: string) => void): SyncError {
  if (err instanceof SyncError) return err;
  if (err instanceof StorageUnavailableError) {
    log(`storage unavailable: ${err.message}`);
    return new SyncError(
      'storage_unavailable',
      `The sync server cannot reach its storage: ${err.message}. Nothing was stored.`,
    );
  }
  log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
  return new SyncError(
    'internal',
    'The sync server failed unexpectedly; try again later (a commit that failed this way was either applied whole or not at all).',
  );
}
