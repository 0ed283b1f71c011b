import type { ApiMethodName } from '../../shared/api.js';
import { API_METHOD_NAMES } from '../../shared/api/methods.js';
import type { HandlerContext } from './context.js';
import type { ApiHandlers } from './dispatch.js';
import type { AccountHandlers } from './handlers/account.js';
import type { AgentsConnectHandlers } from './handlers/agents-connect.js';
import type { AgentsHandlers } from './handlers/agents.js';
import type { BackupsHandlers } from './handlers/backups.js';
import type { CleanupHandlers } from './handlers/cleanup.js';
import type { EncryptionHandlers } from './handlers/encryption.js';
import type { NotesHandlers } from './handlers/notes.js';
import type { ProjectHandlers } from './handlers/project.js';
import type { SemanticHandlers } from './handlers/semantic.js';
import type { SyncHandlers } from './handlers/sync.js';

/** An area's handlers, built from the context; its module is imported on the area's first call. */
type Area<H> = (ctx: HandlerContext) => Promise<H>;
/** The `<prefix>` of every method name `<prefix>.<name>`. */
type Prefix<M extends string = ApiMethodName> = M extends `${infer P}.${string}` ? P : never;
type MethodsOf<P extends string> = Extract<ApiMethodName, `${P}.${string}`>;

const notes: Area<NotesHandlers> = async (ctx) =>
  (await import('./handlers/notes.js')).createNotesHandlers(ctx);
const backups: Area<BackupsHandlers> = async (ctx) =>
  (await import('./handlers/backups.js')).createBackupsHandlers(ctx);
const project: Area<ProjectHandlers> = async (ctx) =>
  (await import('./handlers/project.js')).createProjectHandlers(ctx);
/** agents.*: the connect handlers (hooks, MCP) load without retain/archive/Mnemopi (sql.js), which load on their first call. */
const agents: Area<AgentsConnectHandlers & AgentsHandlers> = async (ctx) => {
  let base: Promise<AgentsHandlers> | undefined;
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
const cleanup: Area<CleanupHandlers> = async (ctx) =>
  (await import('./handlers/cleanup.js')).createCleanupHandlers(ctx);
const sync: Area<SyncHandlers> = async (ctx) => (await import('./handlers/sync.js')).createSyncHandlers(ctx);
const account: Area<AccountHandlers> = async (ctx) =>
  (await import('./handlers/account.js')).createAccountHandlers(ctx);
const encryption: Area<EncryptionHandlers> = async (ctx) =>
  (await import('./handlers/encryption.js')).createEncryptionHandlers(ctx);
const semantic: Area<SemanticHandlers> = async (ctx) =>
  (await import('./handlers/semantic.js')).createSemanticHandlers(ctx);

/**
 * Which area implements the methods named `<prefix>.*` (electron/api/handlers/<area>.ts). Add your
 * area with one line. Areas are imported on first use, so a one-shot CLI command loads only its
 * own area — `memdesk recall` never loads the sync engine, sql.js or the zip code. The type says
 * that every prefix has an area and that each area implements every method of its prefix: a
 * method added to shared/api/ without its handler does not compile.
 */
export const handlerAreas = {
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
} satisfies { [P in Prefix]: Area<Pick<ApiHandlers, MethodsOf<P>>> };

const prefixOf = (method: ApiMethodName) => method.slice(0, method.indexOf('.')) as Prefix;

/** The handler table: one function per API method; each area is built once, on its first call. */
export function createHandlers(ctx: HandlerContext): ApiHandlers {
  const built = new Map<Area<Partial<ApiHandlers>>, Promise<Partial<ApiHandlers>>>();
  const table: Partial<Record<ApiMethodName, (input: never) => Promise<unknown>>> = {};
  for (const method of API_METHOD_NAMES) {
    const area: Area<Partial<ApiHandlers>> = handlerAreas[prefixOf(method)];
    table[method] = async (input: never) => {
      let handlers = built.get(area);
      if (!handlers) built.set(area, (handlers = area(ctx)));
      // handlerAreas' type holds that this area implements the method.
      const handler = (await handlers)[method] as (input: never) => Promise<unknown>;
      return handler(input);
    };
  }
  return table as ApiHandlers;
}
