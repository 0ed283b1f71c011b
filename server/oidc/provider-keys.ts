import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';
import { PreconditionFailedError, type StorageAdapter } from '../storage/storage.js';

/**
 * The built-in provider's signing key and cookie keys, made once and kept in the server's storage
 * (`auth/provider-keys.json`), so tokens stay valid across restarts and every instance signs and
 * verifies with the same key. Whoever can read the storage can read this key: the same people
 * who can already read every note there.
 */
const KEYS_KEY = 'auth/provider-keys.json';

const ProviderKeysSchema = z.object({
  signing: z.array(z.looseObject({ kty: z.string(), kid: z.string() })).min(1),
  cookies: z.array(z.string().min(32)).min(1),
});
export type ProviderKeys = { signing: JWK[]; cookies: string[] };

export async function loadProviderKeys(storage: StorageAdapter): Promise<ProviderKeys> {
  const existing = await storage.get(KEYS_KEY);
  if (existing) return ProviderKeysSchema.parse(JSON.parse(existing.body.toString('utf8'))) as ProviderKeys;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    alg: 'ES256',
    use: 'sig',
    kid: randomBytes(9).toString('base64url'),
  };
  const keys: ProviderKeys = { signing: [jwk], cookies: [randomBytes(32).toString('base64url')] };
  try {
    await storage.put(KEYS_KEY, JSON.stringify(keys), { ifNoneMatch: '*' });
    return keys;
  } catch (err) {
    // Another instance made them first: use theirs.
    if (err instanceof PreconditionFailedError) return loadProviderKeys(storage);
    throw err;
  }
}

/** The public half of the signing keys, for verifying access tokens without a request. */
export function publicJwks(keys: ProviderKeys): { keys: JWK[] } {
  return {
    keys: keys.signing.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub),
  };
}
