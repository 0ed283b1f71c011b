import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { concatBytes, type RandomSource } from './bytes.js';

/**
 * XChaCha20-Poly1305 with a random 24-byte nonce carried in front of the ciphertext:
 * `nonce ‖ ciphertext ‖ 16-byte tag`. 192-bit random nonces never repeat in practice, so no
 * counter has to be kept across devices. `aad` binds what the bytes are for (role, scope, names).
 */
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;

export function seal(
  key: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
  random: RandomSource,
): Uint8Array {
  const nonce = random(NONCE_BYTES);
  return concatBytes(nonce, xchacha20poly1305(key, nonce, aad).encrypt(plaintext));
}

/** null when the bytes do not authenticate under this key and associated data. */
export function open(key: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Uint8Array | null {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) return null;
  try {
    return xchacha20poly1305(key, sealed.subarray(0, NONCE_BYTES), aad).decrypt(sealed.subarray(NONCE_BYTES));
  } catch {
    return null; // the tag does not verify: tampered, or another key
  }
}
