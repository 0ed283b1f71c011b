import { z } from 'zod';

/**
 * Sign-in and devices (docs/sync-protocol.md, "Signing in"). The sync server tells a client which
 * OpenID Connect provider to sign in with (`GET /v1/auth/config`, the one route without a token);
 * the client runs the authorization code flow with PKCE against it and sends the access token it
 * gets as `Authorization: Bearer`. With the built-in provider every sign-in is one device: the
 * access token carries it in the `did` claim, and the devices routes list and revoke them.
 */
export const SYNC_AUTH_ROUTES = {
  config: '/v1/auth/config',
  devices: '/v1/devices',
  revokeDevice: '/v1/devices/revoke',
} as const;

/** The scope the app asks for: OpenID, a refresh token, and the sync API. */
export const SYNC_OIDC_SCOPE = 'openid offline_access sync';

export const AuthConfigSchema = z.object({
  /** The OpenID Connect issuer to discover (`/.well-known/openid-configuration` under it). */
  issuer: z.string().url(),
  clientId: z.string().min(1),
  scope: z.string().min(1),
  /** The RFC 8707 resource to name in the request, when the provider needs one. */
  resource: z.string().url().optional(),
  /** True when the sync server runs the provider itself (and so lists and revokes devices). */
  builtIn: z.boolean(),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

export const DeviceNameSchema = z.string().trim().min(1).max(100);

export const DeviceSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int().nullable(),
  revokedAt: z.number().int().nullable(),
  /** The device whose token asked. */
  current: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const DevicesResponseSchema = z.object({ devices: z.array(DeviceSchema) });
export const RevokeDeviceRequestSchema = z.object({ id: z.string().min(1).max(200) });

/** Who a sign-in (token, browser or device) signed in as: userId is absent when no request was made. */
export const SignedInSchema = z.object({ origin: z.string(), userId: z.string().optional() });
