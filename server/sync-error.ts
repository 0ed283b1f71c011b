import { SYNC_ERROR_STATUS, type SyncErrorCode } from '../shared/sync-protocol.js';

/** An error the server answers with: HTTP status from SYNC_ERROR_STATUS, message for a person. */
export class SyncError extends Error {
  readonly status: number;
  constructor(
    readonly code: SyncErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SyncError';
    this.status = SYNC_ERROR_STATUS[code];
  }
}
