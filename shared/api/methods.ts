/**
 * Every API method's name, grouped by the file under shared/api/ whose table defines it. This file
 * holds no schema and imports nothing, so a transport can list and route methods without building
 * any zod schema; a caller loads one area's table when a method of it is called
 * (electron/api/api-tables.ts), and `memdesk recall` builds no sync, cleanup or account schema.
 * shared/api.ts checks at compile time that each list names exactly its table's methods.
 */
export const API_METHODS_BY_TABLE = {
  notes: [
    'project.init',
    'app.status',
    'notes.list',
    'notes.tags',
    'notes.get',
    'notes.remember',
    'notes.related',
    'notes.edit',
    'notes.forget',
    'notes.search',
    'notes.recall',
    'notes.index',
    'backups.list',
    'backups.restore',
  ],
  sync: [
    'sync.status',
    'sync.now',
    'sync.setEnabled',
    'sync.login',
    'sync.markInUse',
    'sync.logout',
    'sync.conflicts',
    'sync.conflict',
    'sync.resolve',
  ],
  account: ['account.signIn', 'account.signInDevice', 'account.devices', 'account.revokeDevice'],
  agents: ['agents.retain', 'agents.export', 'agents.import', 'agents.importMnemopi'],
  agentsConnect: [
    'agents.recall',
    'agents.prompt',
    'agents.hook',
    'agents.extract',
    'agents.setup',
    'agents.connections',
  ],
  cleanup: [
    'cleanup.findings',
    'cleanup.count',
    'cleanup.dismiss',
    'cleanup.dismissMany',
    'cleanup.undismiss',
    'cleanup.mergePlan',
    'cleanup.cancelDraft',
    'cleanup.mergeApply',
    'cleanup.modelStatus',
    'cleanup.modelConfigure',
  ],
  encryption: ['encryption.status', 'encryption.on', 'encryption.unlock', 'encryption.changePassphrase'],
  semantic: ['semantic.settings', 'semantic.configure', 'semantic.testConnection', 'semantic.status'],
} as const;

export type ApiTableName = keyof typeof API_METHODS_BY_TABLE;
export type ListedApiMethod = (typeof API_METHODS_BY_TABLE)[ApiTableName][number];

const tableOfMethod = new Map<string, ApiTableName>(
  (Object.keys(API_METHODS_BY_TABLE) as ApiTableName[]).flatMap((table) =>
    API_METHODS_BY_TABLE[table].map((method) => [method, table] as const),
  ),
);

/** Every method name, in table order. */
export const API_METHOD_NAMES: readonly ListedApiMethod[] = [...tableOfMethod.keys()] as ListedApiMethod[];

export function isApiMethod(name: string): name is ListedApiMethod {
  return tableOfMethod.has(name);
}

/** The table (a file under shared/api/) that defines a method. */
export function apiTableOf(method: ListedApiMethod): ApiTableName {
  return tableOfMethod.get(method)!;
}
