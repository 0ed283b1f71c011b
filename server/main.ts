import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type SyncQuotas, SyncQuotasSchema } from '../shared/sync-protocol.js';
import { startSyncServer, type SyncServerOptions } from './app.js';
import { EntitlementsSchema, type Entitlements } from './entitlements.js';
import { s3OptionsFromEnv, S3Storage } from './storage/s3-storage.js';
import { FsStorage } from './storage/fs-storage.js';
import { UnavailableStorage } from './storage/unavailable-storage.js';
import type { StorageAdapter } from './storage/storage.js';
import { parseTtl, signUserToken } from './token.js';

/**
 * The sync server's command line (docs/self-hosting.md):
 *   sync-server [--host 127.0.0.1] [--port 8787] [--data DIR | --s3]
 *   sync-server token --user U [--plan free|paid] [--ttl 30d]
 * Settings come from OHARNESS_SYNC_* environment variables; secrets never come from arguments.
 */
const USAGE = `usage:
  sync-server [--host 127.0.0.1] [--port 8787] [--data DIR | --s3]
  sync-server token --user USER [--plan free|paid] [--ttl 30d]`;

/** The longest token lifetime the command-line server accepts unless OHARNESS_SYNC_JWT_MAX_TTL says otherwise. */
const DEFAULT_MAX_TOKEN_TTL = '30d';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'token') return token(argv.slice(1));
  if (argv[0] === 'serve') argv = argv.slice(1);
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      s3: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const env = process.env;
  const useS3 = values.s3 === true || env.OHARNESS_SYNC_STORAGE === 's3';
  if (useS3 && values.data) {
    console.error('Choose one storage: --data DIR or --s3, not both.');
    return 2;
  }
  let storage: StorageAdapter;
  if (useS3) {
    const s3 = s3OptionsFromEnv(env);
    storage = 'problem' in s3 ? new UnavailableStorage(s3.problem) : new S3Storage(s3.options);
  } else {
    storage = new FsStorage(path.resolve(values.data ?? env.OHARNESS_SYNC_DATA ?? 'memory-sync-data'));
  }

  const rate = env.OHARNESS_SYNC_RATE_LIMIT;
  const options: SyncServerOptions = {
    host: values.host ?? env.OHARNESS_SYNC_HOST ?? '127.0.0.1',
    port: Number(values.port ?? env.OHARNESS_SYNC_PORT ?? 8787),
    storage,
    ...(env.OHARNESS_SYNC_JWT_SECRET ? { jwtSecret: env.OHARNESS_SYNC_JWT_SECRET } : {}),
    ...(env.OHARNESS_SYNC_JWKS_URL ? { jwksUrl: env.OHARNESS_SYNC_JWKS_URL } : {}),
    ...(env.OHARNESS_SYNC_JWT_ISSUER ? { issuer: env.OHARNESS_SYNC_JWT_ISSUER } : {}),
    ...(env.OHARNESS_SYNC_JWT_AUDIENCE ? { audience: env.OHARNESS_SYNC_JWT_AUDIENCE } : {}),
    maxTokenLifetimeSeconds: parseTtl(env.OHARNESS_SYNC_JWT_MAX_TTL ?? DEFAULT_MAX_TOKEN_TTL),
    ...(env.OHARNESS_SYNC_ADMIN_KEY ? { adminKey: env.OHARNESS_SYNC_ADMIN_KEY } : {}),
    ...(rate !== undefined
      ? { rateLimit: Number(rate) > 0 ? { requests: Number(rate), windowMs: 60_000 } : null }
      : {}),
    quotas: quotasFromEnv(env),
    ...(env.OHARNESS_SYNC_ENTITLEMENTS
      ? { entitlements: loadEntitlements(env.OHARNESS_SYNC_ENTITLEMENTS) }
      : {}),
    log: (line) => console.error(`[sync-server] ${line}`),
  };
  if (!Number.isInteger(options.port) || options.port! < 0 || options.port! > 65535) {
    console.error(`--port must be a port number, not "${values.port}"`);
    return 2;
  }
  const server = await startSyncServer(options);
  console.log(server.url);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1; // keep running
}

function quotasFromEnv(env: NodeJS.ProcessEnv): Partial<SyncQuotas> {
  const names: Record<keyof SyncQuotas, string> = {
    notesPerScope: 'OHARNESS_SYNC_MAX_NOTES_PER_SCOPE',
    changesPerCommit: 'OHARNESS_SYNC_MAX_CHANGES_PER_COMMIT',
    noteBytes: 'OHARNESS_SYNC_MAX_NOTE_BYTES',
    responseBytes: 'OHARNESS_SYNC_MAX_RESPONSE_BYTES',
    tombstoneDays: 'OHARNESS_SYNC_TOMBSTONE_DAYS',
  };
  const quotas: Partial<SyncQuotas> = {};
  for (const [key, name] of Object.entries(names) as [keyof SyncQuotas, string][]) {
    const value = env[name];
    if (value === undefined) continue;
    const parsed = SyncQuotasSchema.shape[key].safeParse(Number(value));
    if (!parsed.success) throw new Error(`${name} must be a positive whole number, not "${value}"`);
    quotas[key] = parsed.data;
  }
  return quotas;
}

function loadEntitlements(file: string): Entitlements {
  return EntitlementsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

async function token(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { user: { type: 'string' }, plan: { type: 'string' }, ttl: { type: 'string' } },
    strict: true,
  });
  const secret = process.env.OHARNESS_SYNC_JWT_SECRET;
  if (!values.user) {
    console.error(`--user is required\n${USAGE}`);
    return 2;
  }
  if (!secret) {
    console.error('Set OHARNESS_SYNC_JWT_SECRET (the same secret the server uses) to sign a token.');
    return 2;
  }
  if (values.plan !== undefined && values.plan !== 'free' && values.plan !== 'paid') {
    console.error('--plan is free or paid');
    return 2;
  }
  const ttlSeconds = parseTtl(values.ttl ?? DEFAULT_MAX_TOKEN_TTL);
  const maxTtl = parseTtl(process.env.OHARNESS_SYNC_JWT_MAX_TTL ?? DEFAULT_MAX_TOKEN_TTL);
  if (ttlSeconds > maxTtl) {
    console.error(
      `--ttl ${values.ttl} is longer than the server accepts (OHARNESS_SYNC_JWT_MAX_TTL, default ${DEFAULT_MAX_TOKEN_TTL}).`,
    );
    return 2;
  }
  console.log(
    await signUserToken({
      secret,
      user: values.user,
      plan: values.plan ?? 'free',
      ttlSeconds,
      ...(process.env.OHARNESS_SYNC_JWT_ISSUER ? { issuer: process.env.OHARNESS_SYNC_JWT_ISSUER } : {}),
      ...(process.env.OHARNESS_SYNC_JWT_AUDIENCE ? { audience: process.env.OHARNESS_SYNC_JWT_AUDIENCE } : {}),
    }),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`sync-server: ${(err as Error).message}`);
    process.exitCode = 1;
  },
);
