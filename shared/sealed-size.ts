/**
 * Sizes of sealed (end-to-end encrypted) note files, which client and server must agree on.
 * A note file is padded to a power of two (at least 512 bytes; a 4-byte length prefix included),
 * sealed with a 24-byte nonce and a 16-byte tag, and sent as base64url.
 */
export const SEALED_OBJECT_MIN_BYTES = 512;
export const SEALED_OVERHEAD_BYTES = 24 + 16;

/** The padded size of `length` bytes: the next power of two ≥ length + 4, at least `minimum`. */
export function paddedLength(length: number, minimum: number): number {
  let size = minimum;
  while (size < length + 4) size *= 2;
  return size;
}

/** Characters of the base64url text of a sealed note file of `fileBytes` bytes. */
export function sealedContentLength(fileBytes: number): number {
  return Math.ceil(((paddedLength(fileBytes, SEALED_OBJECT_MIN_BYTES) + SEALED_OVERHEAD_BYTES) * 4) / 3);
}
