import { z } from 'zod';
import { DeviceSchema } from '../sync-auth.js';
import { defineMethod } from './define.js';

/**
 * Signing in to a sync server with OpenID Connect and managing this account's devices (#18).
 * Pasting a token stays `sync.login`.
 */
export const accountApi = {
  'account.signIn': defineMethod({
    summary:
      'Sign in to a sync server in the system browser (OpenID Connect, PKCE, loopback redirect); the refresh token goes to the token store.',
    input: z.object({
      origin: z.string().min(1),
      /** How the device appears in the list of devices; default: this computer's name. */
      deviceName: z.string().trim().min(1).max(100).optional(),
    }),
    output: z.object({ origin: z.string(), userId: z.string().optional() }),
  }),
  'account.signInDevice': defineMethod({
    summary:
      'Sign in to a sync server from a terminal without a browser (OAuth device authorization grant, RFC 8628): an `account.deviceCode` event carries the address and code to confirm in any browser; the tokens are stored as account.signIn stores them.',
    input: z.object({
      origin: z.string().min(1),
      deviceName: z.string().trim().min(1).max(100).optional(),
    }),
    output: z.object({ origin: z.string(), userId: z.string().optional() }),
  }),
  'account.devices': defineMethod({
    summary: 'The devices signed in to this sync account (name, last seen, revoked), this one marked.',
    input: z.object({}),
    output: z.object({ devices: z.array(DeviceSchema) }),
  }),
  'account.revokeDevice': defineMethod({
    summary:
      'Sign a device out of the sync account; it keeps its notes. Revoking this device also signs it out here.',
    input: z.object({ id: z.string().min(1).max(200) }),
    output: z.object({ device: DeviceSchema, signedOut: z.boolean() }),
  }),
};
