import { z } from 'zod';
import { ScopeSchema } from './note.js';

/**
 * Events the main process (or the web bridge) pushes to the renderer; the renderer invalidates the
 * react-query keys they name. Areas add their event kinds here.
 */
export const AppEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notes.changed'), scope: ScopeSchema, ids: z.array(z.string()) }),
  z.object({ type: z.literal('warnings.changed') }),
  /** Sync status of a scope changed (a round ended, the toggle, a conflict resolved): refetch sync.*. */
  z.object({ type: z.literal('sync.status'), scope: ScopeSchema }),
  /**
   * `encryption on` moving along (issue 19): syncing first, publishing the keyring, uploading the
   * notes sealed (`done` of `total` notes), removing the unencrypted copy. The Sync page and the
   * CLI show it.
   */
  z.object({
    type: z.literal('encryption.progress'),
    phase: z.enum(['syncing', 'publishing', 'uploading', 'removing']),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  /**
   * A device sign-in (`account.signInDevice`, RFC 8628) waits for the person: open the address,
   * enter the code (or open the complete address, which holds it) before it expires.
   */
  z.object({
    type: z.literal('account.deviceCode'),
    verificationUri: z.string(),
    verificationUriComplete: z.string().optional(),
    userCode: z.string(),
    expiresInSeconds: z.number(),
  }),
]);
export type EncryptionProgress = Omit<Extract<AppEvent, { type: 'encryption.progress' }>, 'type'>;
export type DeviceCodePrompt = Omit<Extract<AppEvent, { type: 'account.deviceCode' }>, 'type'>;
export type AppEvent = z.infer<typeof AppEventSchema>;
