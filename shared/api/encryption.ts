import { z } from 'zod';
import { ScopeSchema } from '../note.js';
import { defineMethod, NoInputSchema } from './define.js';

/** End-to-end encryption of cloud sync (issue 19; docs/security.md has the construction). */

const Passphrase = z.string().min(1, 'a passphrase is required').max(1024);

export const EncryptionStatusSchema = z.object({
  signedIn: z.boolean(),
  origin: z.string().nullable(),
  /** The account has a keyring on the server (null: not signed in or the server cannot say). */
  accountEncrypted: z.boolean().nullable(),
  /** This device holds the account's key. */
  unlocked: z.boolean(),
  keyId: z.string().nullable(),
  /** `encryption on` has not finished re-uploading (run it again to resume). */
  reuploadPending: z.boolean(),
});
export type EncryptionStatus = z.infer<typeof EncryptionStatusSchema>;

export const EncryptionScopeResultSchema = z.object({
  scope: ScopeSchema,
  pushed: z.number().int().nonnegative(),
  pulled: z.number().int().nonnegative(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const encryptionApi = {
  'encryption.status': defineMethod({
    summary: 'End-to-end encryption of sync: is the account encrypted, is this device unlocked.',
    input: NoInputSchema,
    output: EncryptionStatusSchema,
  }),
  'encryption.on': defineMethod({
    summary:
      'Turn end-to-end encryption on for the signed-in account and re-upload every note sealed (resumable); returns the recovery code, shown once.',
    input: z.object({ passphrase: Passphrase }),
    output: z.object({
      recoveryCode: z.string().nullable(),
      keyId: z.string(),
      scopes: z.array(EncryptionScopeResultSchema),
      purgedObjects: z.number().int().nonnegative(),
    }),
  }),
  'encryption.unlock': defineMethod({
    summary:
      'Unlock this device for an encrypted account with the passphrase or the recovery code (a wrong one writes nothing).',
    input: z.object({ passphrase: Passphrase.optional(), recoveryCode: z.string().max(200).optional() }),
    output: z.object({ keyId: z.string(), scopes: z.array(EncryptionScopeResultSchema) }),
  }),
  'encryption.changePassphrase': defineMethod({
    summary: 'Change the passphrase: re-wraps the account key only; notes are not re-uploaded.',
    input: z.object({ passphrase: Passphrase, newPassphrase: Passphrase }),
    output: z.object({ keyId: z.string() }),
  }),
};
