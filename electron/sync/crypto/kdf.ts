import { scryptAsync } from '@noble/hashes/scrypt.js';
import { z } from 'zod';
import { fromBase64Url, toBase64Url, utf8, type RandomSource } from './bytes.js';

/**
 * Passphrase → key-encryption key (KEK): scrypt (RFC 7914), memory-hard, N = 2^17, r = 8, p = 1
 * (128 MiB, the OWASP floor for scrypt), 16 random salt bytes, 32 output bytes. The passphrase is
 * NFKC-normalised first so the same words typed on two keyboards give the same key. The parameters
 * travel with the keyring; a device accepts log2 N from 10 to 18 (a keyring asking for more memory
 * than 256 MiB is refused rather than run). Lower costs are for tests: the wrapped key still needs
 * the passphrase, so a server lowering them learns nothing.
 */
export const DEFAULT_SCRYPT = { logN: 17, r: 8, p: 1 } as const;

export const KdfParamsSchema = z.object({
  name: z.literal('scrypt'),
  logN: z.number().int().min(10).max(18),
  r: z.literal(8),
  p: z.literal(1),
  /** 16 bytes, base64url. */
  salt: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
});
export type KdfParams = z.infer<typeof KdfParamsSchema>;

export function newKdfParams(random: RandomSource, logN: number = DEFAULT_SCRYPT.logN): KdfParams {
  return KdfParamsSchema.parse({ name: 'scrypt', logN, r: 8, p: 1, salt: toBase64Url(random(16)) });
}

export async function deriveKek(passphrase: string, params: KdfParams): Promise<Uint8Array> {
  const salt = fromBase64Url(params.salt);
  if (!salt) throw new Error('the keyring salt is not base64url');
  return scryptAsync(utf8(passphrase.normalize('NFKC')), salt, {
    N: 2 ** params.logN,
    r: params.r,
    p: params.p,
    dkLen: 32,
  });
}

/** The parameters as bound into the wrap's associated data (fixed key order). */
export function kdfLabel(params: KdfParams): string {
  return `scrypt:${params.logN}:${params.r}:${params.p}:${params.salt}`;
}
