import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CommitRequestSchema,
  KeyringUpdateRequestSchema,
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
import { SYNC_AUTH_ROUTES, RevokeDeviceRequestSchema } from '../shared/sync-auth.js';
import {
  adminKeyMatches,
  bearerToken,
  createTokenVerifier,
  logLabel,
  type TokenVerifier,
  type VerifiedUser,
} from './auth.js';
import { type Caller, KeyedMutex, type ServerDeps } from './context.js';
import { DEFAULT_ENTITLEMENTS, type Entitlements, planFromClaim, planLimits } from './entitlements.js';
import { acceptsGzip, BodyBudget, readJson, sendJson } from './http-body.js';
import { ManifestCache } from './manifest-cache.js';
import { type SignIn, type SignInOptions, setUpSignIn } from './oidc/sign-in.js';
import { routeTokens, type TokenSource } from './token-routing.js';
import { commitBodyLimit } from '../shared/commit-body.js';
import { listDevices, revokeDevice } from './routes/devices.js';
import { RateLimiter, type RateLimitConfig } from './rate-limit.js';
import { commit } from './routes/commit.js';
import { erase } from './routes/erase.js';
import { AccountEncryption } from './routes/keyring.js';
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
  /**
   * … and/or OpenID Connect sign-in (server/oidc): the built-in provider or an external one. With
   * both, each token is checked by the one its header and issuer name (token-routing.ts).
   */
  signIn?: SignInOptions;
  /** Longest token lifetime accepted (OHARNESS_SYNC_JWT_MAX_TTL; the command line defaults to 30 days). */
  maxTokenLifetimeSeconds?: number;
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
  /**
   * Largest commit body accepted; default: from the caller's announced limits, a full commit of
   * notes at the size limit (`commitBodyLimit`). Bodies are capped before they are parsed.
   */
  maxRequestBytes?: number;
  /** Request-body bytes held at once across all requests (default 256 MiB); past it: `busy`. */
  maxBodyBytesInFlight?: number;
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

/** A snapshot request is a scope, a version, a cursor and the hashes the client has. */
const SNAPSHOT_BODY_LIMIT = 4 * 1024 * 1024;

type Route = {
  method: 'GET' | 'POST';
  kind:
    | 'identity'
    | 'snapshot'
    | 'commit'
    | 'erase'
    | 'keyring'
    | 'keyringUpdate'
    | 'authConfig'
    | 'devices'
    | 'revokeDevice';
};
const ROUTES: Record<string, Route> = {
  [SYNC_AUTH_ROUTES.config]: { method: 'GET', kind: 'authConfig' },
  [SYNC_AUTH_ROUTES.devices]: { method: 'GET', kind: 'devices' },
  [SYNC_AUTH_ROUTES.revokeDevice]: { method: 'POST', kind: 'revokeDevice' },
  [SYNC_ROUTES.identity]: { method: 'GET', kind: 'identity' },
  [SYNC_ROUTES.snapshot]: { method: 'POST', kind: 'snapshot' },
  [SYNC_ROUTES.commit]: { method: 'POST', kind: 'commit' },
  [SYNC_ROUTES.erase]: { method: 'POST', kind: 'erase' },
  [SYNC_ROUTES.keyring]: { method: 'GET', kind: 'keyring' },
  [SYNC_ROUTES.keyringUpdate]: { method: 'POST', kind: 'keyringUpdate' },
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
  const encryption = new AccountEncryption(deps);
  const budget = new BodyBudget(options.maxBodyBytesInFlight ?? 256 * 1024 * 1024);
  const commitLimit = (limits: SyncLimits): number => options.maxRequestBytes ?? commitBodyLimit(limits);
  const maxLifetime =
    options.maxTokenLifetimeSeconds !== undefined
      ? { maxLifetimeSeconds: options.maxTokenLifetimeSeconds }
      : {};
  // The secret's or JWKS's tokens (`sync-server token`); with OpenID Connect sign-in too, its
  // verifier joins once the server listens (the issuer may be its address).
  let signIn: SignIn | null = null;
  const legacy: TokenSource | null =
    options.jwtSecret || options.jwksUrl
      ? {
          kind: options.jwtSecret ? 'secret' : 'jwks',
          issuer: options.issuer,
          verify: createTokenVerifier({
            now,
            ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
            ...(options.jwksUrl ? { jwksUrl: options.jwksUrl } : {}),
            ...(options.issuer ? { issuer: options.issuer } : {}),
            ...(options.audience ? { audience: options.audience } : {}),
            ...maxLifetime,
          }),
        }
      : null;
  let verify: TokenVerifier = legacy ? routeTokens([legacy]) : createTokenVerifier({ now });
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
  if (!options.jwtSecret && !options.jwksUrl && !options.signIn) {
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
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}): Promise<number> =>
      sendJson(res, status, body, {
        gzip: acceptsGzip(req),
        headers: { [SYNC_PROTOCOL_HEADER]: String(deps.protocol.current), ...headers },
      });
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
      if (route.kind === 'authConfig') {
        if (!signIn)
          throw new SyncError(
            'not_found',
            'This sync server has no OpenID Connect sign-in; sign in with a token from whoever runs it.',
          );
        return { status: await reply(200, signIn.config), who };
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
        const body = await readJson(req, 64 * 1024, EraseRequestSchema, budget);
        const result = await erase(deps, body.userId, (sub) => erased.add(sub));
        return { status: await reply(200, result), who };
      }

      if (!token) throw new SyncError('unauthorized', 'Sign in first: this request has no access token.');
      const user = await verify(token);
      if (signIn?.builtIn) {
        if (user.source === 'sign-in') await signIn.builtIn.check.check(user.sub, user.device);
        else await signIn.builtIn.check.checkAccount(user.sub);
      }
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
      const requireNotErased = async (): Promise<void> => {
        if (await isErased(user.sub)) {
          throw new SyncError(
            'account_erased',
            'This account has been deleted; its notes can no longer be synced.',
          );
        }
      };
      // A poll answered `unchanged` skips the marker (one storage read less per poll): erase
      // removes the scope's manifest right after writing the marker, so the next poll checks it.
      if (route.kind !== 'snapshot') await requireNotErased();
      const caller: Caller = { sub: user.sub, limits, protocol };

      switch (route.kind) {
        case 'identity': {
          const identity = {
            userId: user.sub,
            protocol: deps.protocol,
            server: { name: SERVER_NAME, version: SERVER_VERSION },
            limits,
          };
          return { status: await reply(200, identity), who };
        }
        case 'snapshot': {
          const body = await readJson(req, SNAPSHOT_BODY_LIMIT, SnapshotRequestSchema, budget);
          await encryption.requireAccess(caller, body.sealed);
          return { status: await reply(200, await snapshot(deps, caller, body, requireNotErased)), who };
        }
        case 'commit': {
          const body = await readJson(req, commitLimit(limits), CommitRequestSchema, budget);
          await encryption.requireAccess(caller, body.sealed);
          return { status: await reply(200, await commit(deps, caller, body)), who };
        }
        case 'keyring':
          return { status: await reply(200, await encryption.get(caller)), who };
        case 'keyringUpdate': {
          const body = await readJson(req, 64 * 1024, KeyringUpdateRequestSchema, budget);
          return { status: await reply(200, await encryption.update(caller, body)), who };
        }
        case 'devices':
        case 'revokeDevice': {
          if (!signIn?.builtIn)
            throw new SyncError(
              'not_found',
              'This sync server keeps no list of devices: it does not run its own sign-in (see your identity provider).',
            );
          if (route.kind === 'devices')
            return {
              status: await reply(200, await listDevices(signIn.builtIn, user.sub, user.device)),
              who,
            };
          const body = await readJson(req, 4096, RevokeDeviceRequestSchema, budget);
          return {
            status: await reply(200, await revokeDevice(signIn.builtIn, user.sub, body.id, now())),
            who,
          };
        }
      }
    } catch (err) {
      const error = toSyncError(err, log);
      const body = {
        error: {
          code: error.code,
          message: error.message,
          ...(error.details !== undefined ? { details: error.details } : {}),
        },
        ...(limits ? { limits } : {}),
      };
      return { status: await reply(error.status, body, error.headers), who };
    }
  };

  const serve = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{ status: number; who: string }> => {
    if (signIn?.builtIn && (await signIn.builtIn.provider.handle(req, res)))
      return { status: res.statusCode, who: 'sign-in' };
    return handle(req, res);
  };

  const server = http.createServer((req, res) => {
    const started = now();
    serve(req, res)
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
  if (options.signIn) {
    let signInVerify: TokenVerifier;
    let issuer: string;
    try {
      signIn = await setUpSignIn(options.signIn, storage, url, now, log);
      issuer = signIn.issuer;
      if (legacy?.issuer === issuer)
        throw new Error(
          `OHARNESS_SYNC_JWT_ISSUER is the sign-in provider's issuer (${issuer}): tokens of the two could not be told apart. Give the secret's or JWKS's tokens an issuer of their own, or none.`,
        );
      signInVerify = createTokenVerifier({
        now,
        keys: signIn.keys,
        issuer,
        audience: signIn.audience,
        ...maxLifetime,
      });
    } catch (err) {
      if (!(err instanceof StorageUnavailableError)) {
        server.closeAllConnections();
        server.close();
        throw err;
      }
      log(`sign-in UNAVAILABLE: its keys cannot be read from storage (${err.message})`);
      issuer =
        options.signIn.provider === 'external' ? options.signIn.issuer : (options.signIn.publicUrl ?? url);
      signInVerify = async () => {
        throw new SyncError(
          'storage_unavailable',
          'The sync server cannot reach its storage to check sign-ins; try again later.',
        );
      };
    }
    verify = routeTokens([...(legacy ? [legacy] : []), { kind: 'sign-in', issuer, verify: signInVerify }]);
    if (legacy)
      log(
        `sign-in: also accepting tokens of ${legacy.kind === 'secret' ? 'OHARNESS_SYNC_JWT_SECRET' : 'OHARNESS_SYNC_JWKS_URL'}`,
      );
  }

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

function toSyncError(err: unknown, log: (line: string) => void): SyncError {
  if (err instanceof SyncError) return err;
  if (err instanceof StorageUnavailableError) {
    // The reason names directories, buckets and keys: it goes to the log, never to the caller.
    log(`storage unavailable: ${err.message}`);
    return new SyncError(
      'storage_unavailable',
      err.publicReason
        ? `The sync server cannot use its storage: ${err.publicReason}. Nothing was stored.`
        : 'The sync server cannot reach its storage (its log says why). Nothing was stored.',
    );
  }
  log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
  return new SyncError(
    'internal',
    'The sync server failed unexpectedly; try again later (a commit that failed this way was either applied whole or not at all).',
  );
}
