/**
 * The memory core's public entry.
 *   createUserMemory({home, now?, env?, watch?})                        one per OHARNESS_HOME, shareable
 *   createMemoryCore({home, projectRoot?, now?, emit?, user?, watch?})  one per open project
 *   createNotesService(core)                                            remember / edit / forget
 *   refuseCredentials / maskCredentials / credentialWarning              for anything that writes notes
 * Search, recall and the index text: ./search/index.ts (core.search() is the live index).
 */
export * from './types.js';
export { createMemoryCore, createUserMemory, defaultHome, userNotesDir } from './core.js';
export { createNotesService } from './notes-service.js';
export {
  credentialWarning,
  credentialsMessage,
  findCredentials,
  findFieldCredentials,
  maskCredentials,
  refuseCredentials,
} from './credentials.js';
export { loadMemoryConfig, envNameForKey } from './config.js';
export { DEFAULT_MEMORY_CONFIG, MemoryConfigSchema } from './config-schema.js';
export { withDirLock, LOCK_FILE_NAME } from './dir-lock.js';
export { writeFileAtomic } from './atomic-write.js';
export { extractLinks } from './links.js';
