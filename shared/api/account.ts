import { z } from 'zod';
import {
  DeviceNameSchema,
  DevicesResponseSchema,
  DeviceSchema,
  RevokeDeviceRequestSchema,
  SignedInSchema,
} from '../sync-auth.js';
import { defineMethod, NoInputSchema } from './define.js';

/** What both ways of signing in with OpenID Connect take. */
const SignInInputSchema = z.object({
  origin: z.string().min(1),
  /** How the device appears in the list of devices; default: this computer's name. */
  deviceName: DeviceNameSchema.optional(),
});

/**
 * Signing in to a sync server with OpenID Connect and managing this account's devices (#18).
 * Pasting a token stays `sync.login`.
 */
export const accountApi = {
  'account.signIn': defineMethod({
    summary:
      'Sign in to a sync server in the system browser (OpenID Connect, PKCE, loopback redirect); the refresh token goes to the token store.',
    input: SignInInputSchema,
    output: SignedInSchema,
  }),
  'account.signInDevice': defineMethod({
    summary:
      'Sign in to a sync server from a terminal without a browser (OAuth device authorization grant, RFC 8628): an `account.deviceCode` event carries the address and code to confirm in any browser; the tokens are stored as account.signIn stores them.',
    input: SignInInputSchema,
    output: SignedInSchema,
  }),
  'account.devices': defineMethod({
    summary: 'The devices signed in to this sync account (name, last seen, revoked), this one marked.',
    input: NoInputSchema,
    output: DevicesResponseSchema,
  }),
  'account.revokeDevice': defineMethod({
    summary:
      'Sign a device out of the sync account; it keeps its notes. Revoking this device also signs it out here.',
    input: RevokeDeviceRequestSchema,
    output: z.object({ device: DeviceSchema, signedOut: z.boolean() }),
  }),
};
