import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import { AppError } from '../../../shared/errors.js';
import { masterKeyId } from './account-keys.js';
import { open, seal } from './aead.js';
import { fromBase64Url, systemRandom, toBase64Url, utf8, type RandomSource } from './bytes.js';
import { EncryptionError } from './errors.js';
import { deriveKek, kdfLabel, KdfParamsSchema, newKdfParams, type KdfParams } from './kdf.js';
import { decodeRecoveryCode, encodeRecoveryCode, RECOVERY_CODE_BYTES } from './recovery-code.js';

/**
 * The keyring: what the server keeps so a second device can unlock. Nothing in it is secret.
 *   master key M: 32 random bytes, made once per account.
 *   passphrase:   XChaCha20-Poly1305(KEK = scrypt(passphrase), M),
 *                 AAD "memdesk:keyring:v1:passphrase\0<keyId>\0<kdf label>"
 *   recovery:     XChaCha20-Poly1305(HKDF-SHA256(code, salt, "memdesk:recovery:v1"), M),
 *                 AAD "memdesk:keyring:v1:recovery\0<keyId>"
 * `keyId` names M (account-keys.ts); after unwrapping, it is recomputed and must match, so a keyring
 * whose parts were swapped is `tampered`. Changing the passphrase replaces only the passphrase wrap
 * (new salt, new KEK): M, and so every sealed object, stays as it is.
 */
const WrappedSchema = z.string().regex(/^[A-Za-z0-9_-]{96}$/, 'a wrapped key is 72 bytes base64url');

export const KeyringSchema = z.object({
  format: z.literal(1),
  keyId: z.string().regex(/^[0-9a-f]{32}$/),
  passphrase: z.object({ kdf: KdfParamsSchema, wrapped: WrappedSchema }),
  recovery: z.object({ salt: z.string().regex(/^[A-Za-z0-9_-]{22}$/), wrapped: WrappedSchema }),
});
export type Keyring = z.infer<typeof KeyringSchema>;

export interface KeyringOptions {
  random?: RandomSource;
  /** log2 of scrypt's N (default 17; tests use less). */
  logN?: number;
}

export interface NewKeyring {
  keyring: Keyring;
  master: Uint8Array;
  /** Shown to the person once; never stored by Memory Desk. */
  recoveryCode: string;
}

function passphraseAad(keyId: string, kdf: KdfParams): Uint8Array {
  return utf8(`memdesk:keyring:v1:passphrase\0${keyId}\0${kdfLabel(kdf)}`);
}

function recoveryAad(keyId: string): Uint8Array {
  return utf8(`memdesk:keyring:v1:recovery\0${keyId}`);
}

function recoveryKek(code: Uint8Array, salt: string): Uint8Array {
  return hkdf(sha256, code, fromBase64Url(salt)!, utf8('memdesk:recovery:v1'), 32);
}

export const MIN_PASSPHRASE_CHARS = 8;

export function assertPassphrase(passphrase: string): void {
  if ([...passphrase.normalize('NFKC')].length < MIN_PASSPHRASE_CHARS)
    throw new AppError('invalid_input', `the passphrase must be at least ${MIN_PASSPHRASE_CHARS} characters`);
}

export async function createKeyring(passphrase: string, opts: KeyringOptions = {}): Promise<NewKeyring> {
  assertPassphrase(passphrase);
  const random = opts.random ?? systemRandom;
  const master = random(32);
  const keyId = masterKeyId(master);
  const code = random(RECOVERY_CODE_BYTES);
  const recoverySalt = toBase64Url(random(16));
  const keyring: Keyring = {
    format: 1,
    keyId,
    passphrase: await wrapForPassphrase(master, keyId, passphrase, random, opts.logN),
    recovery: {
      salt: recoverySalt,
      wrapped: toBase64Url(seal(recoveryKek(code, recoverySalt), master, recoveryAad(keyId), random)),
    },
  };
  return { keyring, master, recoveryCode: encodeRecoveryCode(code) };
}

async function wrapForPassphrase(
  master: Uint8Array,
  keyId: string,
  passphrase: string,
  random: RandomSource,
  logN: number | undefined,
): Promise<Keyring['passphrase']> {
  const kdf = newKdfParams(random, logN);
  const kek = await deriveKek(passphrase, kdf);
  return { kdf, wrapped: toBase64Url(seal(kek, master, passphraseAad(keyId, kdf), random)) };
}

function checked(master: Uint8Array | null, keyring: Keyring): Uint8Array | null {
  if (master === null) return null;
  if (master.length !== 32 || masterKeyId(master) !== keyring.keyId)
    throw new EncryptionError(
      'tampered',
      'the keyring on the server is damaged: its key does not match its name',
    );
  return master;
}

/** The master key, or `wrong_passphrase`. */
export async function unlockWithPassphrase(keyring: Keyring, passphrase: string): Promise<Uint8Array> {
  const kek = await deriveKek(passphrase, keyring.passphrase.kdf);
  const master = checked(
    open(
      kek,
      fromBase64Url(keyring.passphrase.wrapped)!,
      passphraseAad(keyring.keyId, keyring.passphrase.kdf),
    ),
    keyring,
  );
  if (!master) throw new EncryptionError('wrong_passphrase', 'the passphrase does not unlock this account');
  return master;
}

/** The master key from the recovery code, or `wrong_passphrase`. */
export function unlockWithRecoveryCode(keyring: Keyring, recoveryCode: string): Uint8Array {
  const code = decodeRecoveryCode(recoveryCode);
  const master = code
    ? checked(
        open(
          recoveryKek(code, keyring.recovery.salt),
          fromBase64Url(keyring.recovery.wrapped)!,
          recoveryAad(keyring.keyId),
        ),
        keyring,
      )
    : null;
  if (!master)
    throw new EncryptionError('wrong_passphrase', 'the recovery code does not unlock this account');
  return master;
}

/** The same keyring with the master key re-wrapped under a new passphrase (nothing else changes). */
export async function changePassphrase(
  keyring: Keyring,
  master: Uint8Array,
  newPassphrase: string,
  opts: KeyringOptions = {},
): Promise<Keyring> {
  assertPassphrase(newPassphrase);
  if (masterKeyId(master) !== keyring.keyId)
    throw new Error('this master key does not belong to the keyring');
  const passphrase = await wrapForPassphrase(
    master,
    keyring.keyId,
    newPassphrase,
    opts.random ?? systemRandom,
    opts.logN,
  );
  return { ...keyring, passphrase };
}
