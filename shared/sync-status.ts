import { z } from 'zod';
import { ErrorCodeSchema } from './error-schemas.js';
import { SyncErrorCodeSchema } from './sync-protocol.js';

/**
 * Every code a scope's sync status (`sync.status` → `error.code`, `sync --json`) can carry, one
 * enum for the engine, the API, the renderer and the CLI:
 *   - the client's own: what the person can act on (sign in, turn sync on, answer the fail-safe,
 *     upgrade) and what the network did;
 *   - the server's (shared/sync-protocol.ts SYNC_ERROR_STATUS), passed through;
 *   - the core's (shared/errors.ts ERROR_CODES), for a failure on this computer (a disk error).
 */
export const CLIENT_SYNC_STATUS_CODES = [
  'signed_out', // no account on this computer
  'sync_off', // 关闭云同步 for this scope
  'account_mismatch', // the scope was synced as another account or server
  'confirm_deletes', // the fail-safe asks before a mass delete
  'client_too_old', // the server needs a newer app
  'server_too_old', // the app needs a newer server (user notes, typed notes)
  'offline', // no connection to the server
  'bad_response', // the server answered with something that is not the protocol
  'lost_response', // the connection broke after the request was sent
] as const;

export const SyncStatusCodeSchema = z.enum([
  ...CLIENT_SYNC_STATUS_CODES,
  ...SyncErrorCodeSchema.options,
  ...ErrorCodeSchema.options,
]);
export type SyncStatusCode = z.infer<typeof SyncStatusCodeSchema>;

/** The status code for a failure named by a server, the HTTP client or the core (unknown: internal). */
export function syncStatusCode(code: string): SyncStatusCode {
  const parsed = SyncStatusCodeSchema.safeParse(code);
  return parsed.success ? parsed.data : 'internal';
}
