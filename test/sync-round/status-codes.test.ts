import { describe, expect, it } from 'vitest';
import { ScopeSyncStatusSchema } from '../../shared/api/sync.js';
import { SyncErrorCodeSchema } from '../../shared/sync-protocol.js';
import { CLIENT_SYNC_STATUS_CODES, syncStatusCode, SyncStatusCodeSchema } from '../../shared/sync-status.js';

describe('sync status codes: one enum for the engine, the API, the renderer and the CLI', () => {
  it('holds the client’s own codes and every code the server answers with', () => {
    for (const code of [...CLIENT_SYNC_STATUS_CODES, ...SyncErrorCodeSchema.options])
      expect(syncStatusCode(code)).toBe(code);
    expect(syncStatusCode('io_error')).toBe('io_error');
  });

  it('a failure nobody named becomes internal, and the status schema refuses a stray string', () => {
    expect(syncStatusCode('something_new')).toBe('internal');
    expect(SyncStatusCodeSchema.safeParse('rate-limited').success).toBe(false);
    const status = {
      scope: 'user',
      label: 'Your own notes',
      dir: '/x',
      enabled: true,
      signedIn: true,
      boundTo: null,
      lastSyncedAt: null,
      lastPull: null,
      pausedUntil: null,
      plan: null,
      notices: [],
      held: [],
      localOnly: [],
      conflicts: [],
      pendingDeletes: null,
      pendingUploads: 0,
      roundTotals: { added: 0, changed: 0, deleted: 0, rounds: 0, pushed: 0, conflicts: 0 },
    };
    const error = (code: string) => ({ ...status, error: { code, message: 'm', scope: 'user' } });
    expect(ScopeSyncStatusSchema.safeParse(error('confirm_deletes')).success).toBe(true);
    expect(ScopeSyncStatusSchema.safeParse(error('rate-limited')).success).toBe(false);
  });
});
