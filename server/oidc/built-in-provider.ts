import type http from 'node:http';
import Provider, { errors as providerErrors, type KoaContextLike, type TokenLike } from 'oidc-provider';
import { DeviceNameSchema, SYNC_OIDC_SCOPE } from '../../shared/sync-auth.js';
import { RateLimiter } from '../rate-limit.js';
import type { StorageAdapter } from '../storage/storage.js';
import type { AccountStore } from './accounts.js';
import type { DeviceStore } from './devices.js';
import { escapeHtml } from '../../shared/escape-html.js';
import {
  type DevicePageContext,
  deviceSignedInPage,
  userCodeConfirmPage,
  userCodeInputPage,
} from './device-pages.js';
import { readForm, sendLoginPage, sendMessagePage } from './login-page.js';
import { StorageProviderAdapter } from './provider-adapter.js';
import type { ProviderKeys } from './provider-keys.js';

/**
 * The OpenID Connect provider a self-hoster gets without running one (oidc-provider, a certified
 * implementation), mounted on the sync server: discovery at `/.well-known/openid-configuration`,
 * authorization code + PKCE (S256) for the one public client, Memory Desk, redirecting to a
 * loopback address on any port (RFC 8252 §7.3). Access tokens are short-lived JWTs for the sync
 * API (audience `<issuer>/v1/memory`, claim `did` = the device); refresh tokens rotate on every
 * use, and re-using an old one revokes the device (oidc-provider's reuse detection).
 * Every sign-in is a new grant, and a grant is a device. A terminal without a browser signs in
 * with the device authorization grant (RFC 8628): its code is entered and confirmed at `/device`,
 * then the same login page and the same grant as above.
 */
export const MEMORY_DESK_CLIENT_ID = 'memory-desk';

export interface BuiltInProviderOptions {
  issuer: string;
  storage: StorageAdapter;
  keys: ProviderKeys;
  accounts: AccountStore;
  devices: DeviceStore;
  /** Access token lifetime (default 10 minutes). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime; each refresh starts a new one (default 30 days). */
  refreshTokenTtlSeconds?: number;
  /** How long a device sign-in's code can be entered (default 10 minutes). */
  deviceCodeTtlSeconds?: number;
  /** Sign-in attempts per account name per minute (default 10). */
  loginAttemptsPerMinute?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface BuiltInProvider {
  issuer: string;
  /** The `aud` of its access tokens, and the RFC 8707 resource. */
  audience: string;
  /** Answers the request if it is the provider's (true), or leaves it to the sync routes (false). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** Ends the device's grant: its refresh token and any code in flight stop working. */
  endGrant(grantId: string): Promise<void>;
}

export function createBuiltInProvider(options: BuiltInProviderOptions): BuiltInProvider {
  const issuer = options.issuer.replace(/\/+$/, '');
  const audience = `${issuer}/v1/memory`;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  const { accounts, devices, storage } = options;
  const logins = new RateLimiter({ requests: options.loginAttemptsPerMinute ?? 10, windowMs: 60_000 }, now);

  const provider = new Provider(issuer, {
    adapter: class {
      constructor(model: string) {
        // An expired device code stays readable a while, so the terminal still polling for it is
        // told `expired_token` (RFC 8628 §3.5) and the browser "that code has expired", not "unknown".
        return new StorageProviderAdapter(storage, model, now, model === 'DeviceCode' ? 3600 : 0);
      }
    },
    clients: [
      {
        client_id: MEMORY_DESK_CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1/callback', 'http://[::1]/callback'],
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: options.keys.signing },
    cookies: { keys: options.keys.cookies },
    scopes: SYNC_OIDC_SCOPE.split(' '),
    claims: { openid: ['sub'] },
    extraParams: ['device_name'],
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = await accounts.get(sub);
      if (!account || account.disabledAt !== null) return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    // A refresh token for the app whether or not it asked for offline_access with prompt=consent.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    // Only the grant this sign-in made: a second sign-in in the same browser is a second device.
    loadExistingGrant: async (ctx: KoaContextLike) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    extraTokenClaims: async (_ctx: unknown, token: TokenLike) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.get(token.accountId);
      return { did: token.grantId, ent: { plan: account?.plan ?? 'free' } };
    },
    features: {
      devInteractions: { enabled: false },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: userCodeInputPage,
        userCodeConfirmSource: (
          ctx: DevicePageContext,
          form: string,
          _c: unknown,
          _i: unknown,
          code: string,
        ) => userCodeConfirmPage(ctx, form, code),
        successSource: deviceSignedInPage,
      },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          if (resource !== audience) throw new providerErrors.InvalidTarget(`unknown resource ${resource}`);
          return {
            scope: 'sync',
            audience,
            accessTokenTTL: options.accessTokenTtlSeconds ?? 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 600,
      AuthorizationCode: 60,
      DeviceCode: options.deviceCodeTtlSeconds ?? 600,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: options.refreshTokenTtlSeconds ?? 30 * 24 * 3600,
      RefreshToken: options.refreshTokenTtlSeconds ?? 30 * 24 * 3600,
    },
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><h1>Sign-in failed</h1><p>${escapeHtml(out.error_description ?? out.error ?? 'unknown error')}</p>`;
    },
  });
  provider.on('server_error', (_ctx, err) => log(`oidc provider error: ${(err as Error).message}`));
  const callback = provider.callback();

  const interaction = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    uid: string,
    action: string | undefined,
  ): Promise<void> => {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      sendMessagePage(
        res,
        400,
        'Sign-in expired',
        'This sign-in page is no longer valid. Start signing in again from Memory Desk.',
      );
      return;
    }
    if (details.uid !== uid) {
      sendMessagePage(
        res,
        400,
        'Sign-in expired',
        'This sign-in page belongs to another sign-in. Start again from Memory Desk.',
      );
      return;
    }
    const parsedName = DeviceNameSchema.safeParse(details.params.device_name);
    const deviceName = parsedName.success ? parsedName.data : 'Unnamed device';
    if (details.prompt.name === 'login') {
      if (req.method === 'GET' && action === undefined) return sendLoginPage(res, uid, { deviceName });
      if (req.method !== 'POST' || action !== 'login')
        return sendMessagePage(res, 405, 'Not here', 'Use the sign-in form.');
      const form = await readForm(req);
      const name = (form?.get('name') ?? '').trim().toLowerCase();
      const password = form?.get('password') ?? '';
      const wait = logins.take(`login:${name}`);
      if (wait > 0)
        return sendLoginPage(res, uid, {
          deviceName,
          name,
          status: 429,
          error: `Too many attempts for this account; try again in ${wait} s.`,
        });
      const result = await accounts.authenticate(name, password);
      if (!result.ok)
        return sendLoginPage(res, uid, {
          deviceName,
          name,
          status: 401,
          error:
            result.reason === 'disabled'
              ? 'This account is disabled on this sync server. Ask whoever runs it.'
              : 'That account name and password do not match.',
        });
      log(`sign-in: an account signed in (device "${deviceName}")`);
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: result.account.name } },
        { mergeWithLastSubmission: false },
      );
    }
    if (details.prompt.name === 'consent' && details.session) {
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const grant = new provider.Grant({
        accountId: details.session.accountId,
        clientId: MEMORY_DESK_CLIENT_ID,
      });
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(resource, scopes.join(' '));
      const grantId = await grant.save();
      await devices.create(details.session.accountId, grantId, deviceName, now());
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    }
    sendMessagePage(
      res,
      400,
      'Cannot sign in',
      `This sign-in needs "${details.prompt.name}", which this server does not offer.`,
    );
  };

  return {
    issuer,
    audience,
    async handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path.startsWith('/v1/')) return false;
      const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login))?$/.exec(path);
      if (match) await interaction(req, res, match[1]!, match[2]);
      else await callback(req, res);
      return true;
    },
    async endGrant(grantId) {
      const grant = await provider.Grant.find(grantId);
      await grant?.destroy();
      await new StorageProviderAdapter(storage, 'Grant', now).revokeByGrantId(grantId);
    },
  };
}
