import { paddedLength } from '../../../shared/sealed-size.js';

/**
 * Sizes padded to buckets before sealing, so the server learns only a size class: a 4-byte
 * big-endian length, the bytes, then zeros up to the next power of two (at least `minimum`).
 * A note of 700 bytes and one of 1000 both travel as 1024 bytes + 40 of nonce and tag.
 */
export function pad(data: Uint8Array, minimum: number): Uint8Array {
  const out = new Uint8Array(paddedLength(data.length, minimum));
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(data, 4);
  return out;
}

/** null when the length prefix does not fit (only after authentication, so this means a bug). */
export function unpad(padded: Uint8Array): Uint8Array | null {
  if (padded.length < 4) return null;
  const length = new DataView(padded.buffer, padded.byteOffset, padded.byteLength).getUint32(0);
  return length + 4 <= padded.length ? padded.subarray(4, 4 + length) : null;
}
