import { AppError } from '../../../shared/errors.js';

/**
 * What end-to-end encryption refused, as the engine and the CLI tell them apart:
 * - `wrong_passphrase`: the passphrase (or recovery code) does not open the keyring;
 * - `tampered`: an object, entry or keyring failed authentication, or decrypted to something that
 *   does not match the name and hash it was stored under (a flipped bit, an object moved to another
 *   note id or scope);
 * - `rollback`: the server showed a manifest older than one this device has already seen;
 * - `locked`: the account is encrypted and this device has no key yet (unlock it first).
 * Nothing that fails these checks is ever written into a note.
 */
export type EncryptionFailure = 'wrong_passphrase' | 'tampered' | 'rollback' | 'locked';

export class EncryptionError extends AppError {
  constructor(
    readonly failure: EncryptionFailure,
    message: string,
  ) {
    super(failure === 'wrong_passphrase' ? 'refused' : 'sync_error', message, { failure });
    this.name = 'EncryptionError';
  }
}
