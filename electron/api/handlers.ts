import { api, type ApiMethodName } from '../../shared/api.js';
import { AppError } from '../../shared/errors.js';
import type { HandlerContext } from './context.js';
import type { ApiHandlers } from './dispatch.js';
import { createAgentsHandlers } from './handlers/agents.js';
import { createAgentsConnectHandlers } from './handlers/agents-connect.js';
import { createBackupsHandlers } from './handlers/backups.js';
import { createCleanupHandlers } from './handlers/cleanup.js';
import { createNotesHandlers } from './handlers/notes.js';
import { createProjectHandlers } from './handlers/project.js';
import { createSyncHandlers } from './handlers/sync.js';

/**
 * The handler table: each area contributes its methods from electron/api/handlers/<area>.ts.
 * Add your area with one line in `areas` below.
 */
export function createHandlers(ctx: HandlerContext): ApiHandlers {
  const areas: Partial<ApiHandlers>[] = [
    createNotesHandlers(ctx),
    createBackupsHandlers(ctx),
    createProjectHandlers(ctx),
    createAgentsHandlers(ctx),
    createAgentsConnectHandlers(ctx),
    createCleanupHandlers(ctx),
    createSyncHandlers(ctx),
  ];
  const table: Partial<ApiHandlers> = Object.assign({}, ...areas);
  // Methods whose area is not wired yet answer with a clear error instead of crashing a transport.
  for (const method of Object.keys(api) as ApiMethodName[]) {
    if (!table[method]) {
      (table as Record<string, unknown>)[method] = async () => {
        throw new AppError('unavailable', `${method} is not available in this build yet`);
      };
    }
  }
  return table as ApiHandlers;
}
