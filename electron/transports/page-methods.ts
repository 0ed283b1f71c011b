import { AppError } from '../../shared/errors.js';
import type { ApiMethodName } from '../../shared/api.js';
import type { ApiHandlers } from '../api/dispatch.js';

/**
 * Methods that read or write a file path the caller names. A page (the web bridge's, or the
 * Electron renderer over IPC) must not reach them: a script in the page could otherwise write any
 * file the user can (`agents.export` with out=~/.bashrc) or read any zip or database. They stay
 * available to the CLI and the MCP server, whose caller already runs as the user; a desktop UI for
 * them would ask main for a native file dialog and pass the chosen path itself.
 */
export const PATH_TAKING_METHODS = [
  'agents.export',
  'agents.import',
  'agents.importMnemopi',
] as const satisfies readonly ApiMethodName[];

/** The handler table a page may call: path-taking methods refuse with a message saying where to go. */
export function pageHandlers(handlers: ApiHandlers): ApiHandlers {
  const table = { ...handlers };
  for (const method of PATH_TAKING_METHODS) {
    (table as Record<string, unknown>)[method] = () =>
      Promise.reject(
        new AppError(
          'refused',
          `${method} takes a file path, which a page may not choose; use the CLI (memdesk ${method === 'agents.export' ? 'export' : 'import'} …)`,
        ),
      );
  }
  return table;
}
