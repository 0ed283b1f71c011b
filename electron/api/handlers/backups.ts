import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type BackupsHandlers = Pick<ApiHandlers, 'backups.list' | 'backups.restore'>;

export function createBackupsHandlers({ core }: HandlerContext): BackupsHandlers {
  return {
    'backups.list': async ({ limit }) => ({
      backups: (await core.user.backups.list(limit)).map((b) => ({
        id: b.id,
        noteId: b.noteId,
        scope: b.scope,
        summary: b.summary,
        reason: b.reason,
        at: b.at,
        originDir: b.originDir,
      })),
    }),
    'backups.restore': async ({ backupId }) => core.restoreBackup(backupId),
  };
}
