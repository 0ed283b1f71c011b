import type { z } from 'zod';
import type { ApiMethodDef } from './api/define.js';
import { accountApi } from './api/account.js';
import { agentsApi } from './api/agents.js';
import { agentsConnectApi } from './api/agents-connect.js';
import { cleanupApi } from './api/cleanup.js';
import { encryptionApi } from './api/encryption.js';
import { notesApi } from './api/notes.js';
import { semanticApi } from './api/semantic.js';
import { syncApi } from './api/sync.js';

/**
 * The API table: every method the UI, the CLI and agents can call, with zod schemas for input and
 * output. The handler table (electron/api) implements it once; IPC, the HTTP bridge and the CLI are
 * thin transports that validate input with these same schemas. Each area keeps its methods in its
 * own file under shared/api/ and is spread in here.
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

export function isApiMethod(name: string): name is ApiMethodName {
  return Object.prototype.hasOwnProperty.call(api, name);
}
