import { randomBytes as nodeRandomBytes } from 'node:crypto';

/** Where the construction's random bytes come from; tests inject a fixed source for known answers. */
export type RandomSource = (length: number) => Uint8Array;

export const systemRandom: RandomSource = (length) => new Uint8Array(nodeRandomBytes(length));

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Throws on bytes that are not UTF-8 (a decrypted object always is; anything else is damage). */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Strict: only the base64url alphabet without padding, so a damaged string is not half-decoded. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(text, 'base64url'));
}
