/**
 * The recovery code: 20 random bytes (160 bits) in Crockford base32, 32 characters in eight groups
 * of four (`7KQ2-…`). Reading it back ignores case, spaces and dashes and takes O/I/L as 0/1/1, so
 * a code copied by hand still works. It is high-entropy, so it needs no slow KDF (see keyring.ts).
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_CODE_BYTES = 20;

export function encodeRecoveryCode(bytes: Uint8Array): string {
  if (bytes.length !== RECOVERY_CODE_BYTES) throw new Error('a recovery code is 20 bytes');
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

/** null when the text is not a recovery code (wrong length or a letter outside the alphabet). */
export function decodeRecoveryCode(text: string): Uint8Array | null {
  const clean = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (clean.length !== (RECOVERY_CODE_BYTES * 8) / 5) return null;
  const out = new Uint8Array(RECOVERY_CODE_BYTES);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const ch of clean) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out[at++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}
