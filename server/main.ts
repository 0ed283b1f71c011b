import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type SyncQuotas, SyncQuotasSchema } from '../shared/sync-protocol.js';
import { startSyncServer, type SyncServerOptions } from './app.js';
import { AccountError, AccountStore } from './oidc/accounts.js';
import type { SignInOptions } from './oidc/sign-in.js';
import { EntitlementsSchema, type Entitlements } from './entitlements.js';
import { batchedLineWriter } from './log-lines.js';
import { s3OptionsFromEnv, S3Storage } from './storage/s3-storage.js';
import { FsStorage } from './storage/fs-storage.js';
import { UnavailableStorage } from './storage/unavailable-storage.js';
import type { StorageAdapter } from './storage/storage.js';
import { parseTtl, signUserToken } from './token.js';

/**
 * The sync server's command line (docs/self-hosting.md):
 *   sync-server [--host 127.0.0.1] [--port 8787] [--data DIR | --s3]
 *   sync-server token --user U [--plan free|paid] [--ttl 30d]
 *   sync-server user add NAME --password-file F [--plan free|paid] [--data DIR | --s3]
 *   sync-server user list [--data DIR | --s3]      sync-server user disable NAME [--data DIR | --s3]
 * Settings come from OHARNESS_SYNC_* environment variables; secrets never come from arguments.
 */
const USAGE = `usage:
  sync-server [--host 127.0.0.1] [--port 8787] [--data DIR | --s3]
  sync-server token --user USER [--plan free|paid] [--ttl 30d]
  sync-server user add NAME --password-file FILE [--plan free|paid] [--data DIR | --s3]
  sync-server user list [--data DIR | --s3]
  sync-server user disable NAME [--data DIR | --s3]`;

/** The longest token lifetime the command-line server accepts unless OHARNESS_SYNC_JWT_MAX_TTL says otherwise. */
const DEFAULT_MAX_TOKEN_TTL = '30d';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'token') return token(argv.slice(1));
  if (argv[0] === 'user') return user(argv.slice(1));
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
  const storage = storageFrom(values);
  if (!storage) return 2;
  const signIn = signInFromEnv(env);

  const rate = env.OHARNESS_SYNC_RATE_LIMIT;
  const logLines = batchedLineWriter(process.stderr);
  const options: SyncServerOptions = {
    host: values.host ?? env.OHARNESS_SYNC_HOST ?? '127.0.0.1',
    port: Number(values.port ?? env.OHARNESS_SYNC_PORT ?? 8787),
    storage,
    ...(signIn ? { signIn } : {}),
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
    log: (line) => logLines.log(`[sync-server] ${line}`),
  };
  if (!Number.isInteger(options.port) || options.port! < 0 || options.port! > 65535) {
    console.error(`--port must be a port number, not "${values.port}"`);
    return 2;
  }
  const server = await startSyncServer(options);
  logLines.flush();
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

/** --data DIR, --s3, or the environment's choice; null (and a message) when both are given. */
function storageFrom(values: { data?: string; s3?: boolean }): StorageAdapter | null {
  const env = process.env;
  const useS3 = values.s3 === true || env.OHARNESS_SYNC_STORAGE === 's3';
  if (useS3 && values.data) {
    console.error('Choose one storage: --data DIR or --s3, not both.');
    return null;
  }
  if (!useS3) return new FsStorage(path.resolve(values.data ?? env.OHARNESS_SYNC_DATA ?? 'memory-sync-data'));
  const s3 = s3OptionsFromEnv(env);
  return 'problem' in s3 ? new UnavailableStorage(s3.problem) : new S3Storage(s3.options);
}

/**
 * OpenID Connect sign-in: OHARNESS_SYNC_OIDC=built-in (accounts from `sync-server user add`,
 * issuer OHARNESS_SYNC_PUBLIC_URL or the listening address), or OHARNESS_SYNC_OIDC_ISSUER with
 * OHARNESS_SYNC_OIDC_AUDIENCE and OHARNESS_SYNC_OIDC_CLIENT_ID for an external provider.
 */
function signInFromEnv(env: NodeJS.ProcessEnv): SignInOptions | null {
  if (env.OHARNESS_SYNC_OIDC === 'built-in') {
    return {
      provider: 'built-in',
      ...(env.OHARNESS_SYNC_PUBLIC_URL ? { publicUrl: env.OHARNESS_SYNC_PUBLIC_URL } : {}),
      ...(env.OHARNESS_SYNC_ACCESS_TOKEN_TTL
        ? { accessTokenTtlSeconds: parseTtl(env.OHARNESS_SYNC_ACCESS_TOKEN_TTL) }
        : {}),
      ...(env.OHARNESS_SYNC_REFRESH_TOKEN_TTL
        ? { refreshTokenTtlSeconds: parseTtl(env.OHARNESS_SYNC_REFRESH_TOKEN_TTL) }
        : {}),
      ...(env.OHARNESS_SYNC_DEVICE_CODE_TTL
        ? { deviceCodeTtlSeconds: parseTtl(env.OHARNESS_SYNC_DEVICE_CODE_TTL) }
        : {}),
    };
  }
  if (env.OHARNESS_SYNC_OIDC_ISSUER) {
    const audience = env.OHARNESS_SYNC_OIDC_AUDIENCE;
    const clientId = env.OHARNESS_SYNC_OIDC_CLIENT_ID;
    if (!audience || !clientId)
      throw new Error(
        'With OHARNESS_SYNC_OIDC_ISSUER, set OHARNESS_SYNC_OIDC_AUDIENCE (the audience its access tokens carry for this server) and OHARNESS_SYNC_OIDC_CLIENT_ID (the app registered there) too.',
      );
    return {
      provider: 'external',
      issuer: env.OHARNESS_SYNC_OIDC_ISSUER,
      audience,
      clientId,
      ...(env.OHARNESS_SYNC_OIDC_JWKS_URL ? { jwksUrl: env.OHARNESS_SYNC_OIDC_JWKS_URL } : {}),
      ...(env.OHARNESS_SYNC_OIDC_RESOURCE ? { resource: env.OHARNESS_SYNC_OIDC_RESOURCE } : {}),
    };
  }
  if (env.OHARNESS_SYNC_OIDC && env.OHARNESS_SYNC_OIDC !== 'off')
    throw new Error(`OHARNESS_SYNC_OIDC is "built-in" or unset, not "${env.OHARNESS_SYNC_OIDC}"`);
  return null;
}

/** `user add|list|disable`: the built-in provider's accounts, in the server's storage. */
async function user(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'password-file': { type: 'string' },
      plan: { type: 'string' },
      data: { type: 'string' },
      s3: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, name, ...rest] = positionals;
  const storage = storageFrom(values);
  if (!storage) return 2;
  const accounts = new AccountStore(storage);
  try {
    if (action === 'list' && !name) {
      for (const a of await accounts.list())
        console.log(
          `${a.name}	${a.plan}	${a.disabledAt === null ? 'active' : `disabled ${new Date(a.disabledAt).toISOString()}`}`,
        );
      return 0;
    }
    if (action === 'disable' && name && rest.length === 0) {
      const a = await accounts.disable(name);
      console.log(`disabled ${a.name}: it can no longer sign in, refresh or sync (its notes stay stored)`);
      return 0;
    }
    if (action === 'add' && name && rest.length === 0) {
      if (!values['password-file']) {
        console.error(`user add needs --password-file FILE (passwords never come from arguments)\n${USAGE}`);
        return 2;
      }
      if (values.plan !== undefined && values.plan !== 'free' && values.plan !== 'paid') {
        console.error('--plan is free or paid');
        return 2;
      }
      // The file's first line; a trailing newline is not part of the password.
      const password = readFileSync(values['password-file'], 'utf8').split(/\r?\n/)[0] ?? '';
      await accounts.add(name, password, values.plan ?? 'free');
      console.log(`added ${name}`);
      return 0;
    }
  } catch (err) {
    if (err instanceof AccountError) {
      console.error(`sync-server user ${action}: ${err.message}`);
      return 1;
    }
    throw err;
  }
  console.error(USAGE);
  return 2;
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
