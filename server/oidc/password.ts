import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with node:crypto's scrypt (RFC 7914). Parameters: N = 2^15, r = 8, p = 1,
 * a 16-byte random salt, a 32-byte key — about 32 MiB and ~100 ms per guess, OWASP's
 * recommended minimum for scrypt. The stored form names its parameters, so they can be raised
 * later and old hashes still verify:  scrypt$N$r$p$salt(base64url)$key(base64url)
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

/** Refused up front: beyond this, hashing becomes a way to tie up the server. */
export const MAX_PASSWORD_BYTES = 1024;
export const MIN_PASSWORD_LENGTH = 10;

function derive(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keyLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 · N · r bytes (32 MiB here), Node's default limit.
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    return `the password must be at most ${MAX_PASSWORD_BYTES} bytes`;
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, N, r, p, keyLength);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored hash this code cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await derive(password, salt, N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}
