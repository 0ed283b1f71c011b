import { SignJWT } from 'jose';
import type { EntitlementClaim } from '../shared/sync-protocol.js';

export interface UserTokenOptions {
  secret: string;
  user: string;
  /** Written into the `ent` claim; 'paid' counts as paid with the default entitlements. */
  plan?: string;
  teams?: EntitlementClaim['teams'];
  /** Lifetime in seconds. */
  ttlSeconds?: number;
  issuer?: string;
  audience?: string;
  /** Issue time (ms); defaults to now. */
  now?: number;
}

/** Signs an HS256 user token the server accepts (for self-hosters and tests). */
export async function signUserToken(options: UserTokenOptions): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const ent: EntitlementClaim = {
    plan: options.plan ?? 'free',
    ...(options.teams ? { teams: options.teams } : {}),
  };
  let jwt = new SignJWT({ ent })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.user)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.ttlSeconds ?? 30 * 24 * 3600));
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret));
}

/** "30d", "12h", "90m", "45s" or plain seconds → seconds. */
export function parseTtl(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (examples: 30d, 12h, 90m, 3600)`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
