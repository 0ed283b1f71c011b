import { z } from 'zod';

/**
 * What a sign-in leaves in the TokenStore (the app's safeStorage, the CLI's 0600 file), as JSON:
 * the short-lived access token, the refresh token that renews it, and where they came from.
 * A pasted token is stored as itself (a JWT is never valid JSON), so both kinds coexist.
 */
export const OidcCredentialSchema = z.object({
  kind: z.literal('oidc'),
  issuer: z.string(),
  clientId: z.string(),
  resource: z.string().optional(),
  accessToken: z.string(),
  refreshToken: z.string(),
  /** ms since the epoch, by the clock of the device that signed in. */
  expiresAt: z.number(),
});
export type OidcCredential = z.infer<typeof OidcCredentialSchema>;

export function parseCredential(stored: string): OidcCredential | null {
  if (!stored.startsWith('{')) return null;
  try {
    const parsed = OidcCredentialSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON: not a credential of this kind
  }
}

export function serializeCredential(credential: OidcCredential): string {
  return JSON.stringify(credential);
}
