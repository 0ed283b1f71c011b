import type { z } from 'zod';
import type { ApiMethodDef } from './api/define.js';
import { accountApi } from './api/account.js';
import { agentsApi } from './api/agents.js';
import { agentsConnectApi } from './api/agents-connect.js';
import { cleanupApi } from './api/cleanup.js';
import { encryptionApi } from './api/encryption.js';
import type { API_METHODS_BY_TABLE, ApiTableName } from './api/methods.js';
import { notesApi } from './api/notes.js';
import { semanticApi } from './api/semantic.js';
import { syncApi } from './api/sync.js';

/**
 * The API table: every method the UI, the CLI and agents can call, with zod schemas for input and
 * output. The handler table (electron/api) implements it once; IPC, the HTTP bridge and the CLI are
 * thin transports that validate input with these same schemas. Each area keeps its methods in its
 * own file under shared/api/ and is spread in here. Code that runs one method (the CLI, a hook)
 * loads only that method's file instead (shared/api/methods.ts, electron/api/api-tables.ts).
 */
export const api = {
  ...notesApi,
  ...syncApi,
  ...accountApi,
  ...agentsApi,
  ...agentsConnectApi,
  ...cleanupApi,
  ...encryptionApi,
  ...semanticApi,
} satisfies Record<string, ApiMethodDef>;

export type Api = typeof api;
export type ApiMethodName = keyof Api;
export type ApiInput<M extends ApiMethodName> = z.input<Api[M]['input']>;
export type ApiParsedInput<M extends ApiMethodName> = z.output<Api[M]['input']>;
export type ApiOutput<M extends ApiMethodName> = z.output<Api[M]['output']>;

/** Each table of shared/api/, by its name in API_METHODS_BY_TABLE. */
export interface ApiTables {
  notes: typeof notesApi;
  sync: typeof syncApi;
  account: typeof accountApi;
  agents: typeof agentsApi;
  agentsConnect: typeof agentsConnectApi;
  cleanup: typeof cleanupApi;
  encryption: typeof encryptionApi;
  semantic: typeof semanticApi;
}

/**
 * Compile-time: each list in shared/api/methods.ts names exactly the methods of its table (a method
 * added to a table but not listed there makes its entry below an error: `true` is not `false`).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodListsMatchTables: {
  [T in ApiTableName]: Same<keyof ApiTables[T], (typeof API_METHODS_BY_TABLE)[T][number]>;
} = {
  notes: true,
  sync: true,
  account: true,
  agents: true,
  agentsConnect: true,
  cleanup: true,
  encryption: true,
  semantic: true,
};
void methodListsMatchTables;
