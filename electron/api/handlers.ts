import type { ApiMethodName } from '../../shared/api.js';
import { API_METHOD_NAMES } from '../../shared/api/methods.js';
import { AppError } from '../../shared/errors.js';
import type { HandlerContext } from './context.js';
import type { ApiHandlers } from './dispatch.js';

/** An area's handlers, built from the context; its module is imported on the area's first call. */
type Area = (ctx: HandlerContext) => Promise<Partial<ApiHandlers>>;

const notes: Area = async (ctx) => (await import('./handlers/notes.js')).createNotesHandlers(ctx);
const backups: Area = async (ctx) => (await import('./handlers/backups.js')).createBackupsHandlers(ctx);
const project: Area = async (ctx) => (await import('./handlers/project.js')).createProjectHandlers(ctx);
/** agents.*: the connect handlers (hooks, MCP) load without retain/archive/Mnemopi (sql.js), which load on their first call. */
const agents: Area = async (ctx) => {
  let base: Promise<Partial<ApiHandlers>> | undefined;
  const later = <M extends 'agents.retain' | 'agents.export' | 'agents.import' | 'agents.importMnemopi'>(
    method: M,
  ): ApiHandlers[M] =>
    (async (input: never) => {
      base ??= import('./handlers/agents.js').then((m) => m.createAgentsHandlers(ctx));
      return ((await base)[method] as (input: never) => Promise<unknown>)(input);
    }) as ApiHandlers[M];
  return {
    ...(await import('./handlers/agents-connect.js')).createAgentsConnectHandlers(ctx),
    'agents.retain': later('agents.retain'),
    'agents.export': later('agents.export'),
    'agents.import': later('agents.import'),
    'agents.importMnemopi': later('agents.importMnemopi'),
  };
};
const cleanup: Area = async (ctx) => (await import('./handlers/cleanup.js')).createCleanupHandlers(ctx);
const sync: Area = async (ctx) => (await import('./handlers/sync.js')).createSyncHandlers(ctx);
const account: Area = async (ctx) => (await import('./handlers/account.js')).createAccountHandlers(ctx);
const encryption: Area = async (ctx) =>
  (await import('./handlers/encryption.js')).createEncryptionHandlers(ctx);
const semantic: Area = async (ctx) => (await import('./handlers/semantic.js')).createSemanticHandlers(ctx);

/**
 * Which area implements the methods named `<prefix>.*` (electron/api/handlers/<area>.ts). Add your
 * area with one line. Areas are imported on first use, so a one-shot CLI command loads only its
 * own area — `memdesk recall` never loads the sync engine, sql.js or the zip code.
 */
export const handlerAreas: Readonly<Record<string, Area>> = {
  notes,
  backups,
  project,
  app: project,
  agents,
  cleanup,
  sync,
  account,
  encryption,
  semantic,
};

/** The handler table: one function per API method; each area is built once, on its first call. */
export function createHandlers(ctx: HandlerContext): ApiHandlers {
  const built = new Map<Area, Promise<Partial<ApiHandlers>>>();
  const table: Partial<Record<ApiMethodName, (input: never) => Promise<unknown>>> = {};
  for (const method of API_METHOD_NAMES) {
    const area = handlerAreas[method.slice(0, method.indexOf('.'))];
    table[method] = async (input: never) => {
      let handlers = area && built.get(area);
      if (area && !handlers) built.set(area, (handlers = area(ctx)));
      const handler = (await handlers)?.[method] as ((input: never) => Promise<unknown>) | undefined;
      // A method whose area is not wired yet answers with a clear error instead of crashing a transport.
      if (!handler) throw new AppError('unavailable', `${method} is not available in this build yet`);
      return handler(input);
    };
  }
  return table as ApiHandlers;
}
