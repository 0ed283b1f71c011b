import type { ApiMethodDef } from '../../shared/api/define.js';
import { apiTableOf, type ApiTableName, type ListedApiMethod } from '../../shared/api/methods.js';
import type { ApiTables } from '../../shared/api.js';

/** Each table of shared/api/, imported on first use: a command builds only its own area's schemas. */
const tables: { [T in ApiTableName]: () => Promise<ApiTables[T]> } = {
  notes: async () => (await import('../../shared/api/notes.js')).notesApi,
  sync: async () => (await import('../../shared/api/sync.js')).syncApi,
  account: async () => (await import('../../shared/api/account.js')).accountApi,
  agents: async () => (await import('../../shared/api/agents.js')).agentsApi,
  agentsConnect: async () => (await import('../../shared/api/agents-connect.js')).agentsConnectApi,
  cleanup: async () => (await import('../../shared/api/cleanup.js')).cleanupApi,
  encryption: async () => (await import('../../shared/api/encryption.js')).encryptionApi,
  semantic: async () => (await import('../../shared/api/semantic.js')).semanticApi,
};

/** One method's schemas, loading only the table that defines it. */
export async function apiMethodDef(method: ListedApiMethod): Promise<ApiMethodDef> {
  const table = (await tables[apiTableOf(method)]()) as Record<string, ApiMethodDef>;
  return table[method]!;
}
