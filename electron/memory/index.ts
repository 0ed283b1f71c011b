/**
 * The memory core's public entry. Factories (implemented in core.ts):
 *   createUserMemory({home, now?, emit?, env?})            one per OHARNESS_HOME, shareable
 *   createMemoryCore({home, projectRoot?, now?, emit?, user?}) one per open project
 *   createNotesService(core)                                remember / edit / forget
 * Credential detection for anything that writes notes: ./credentials.ts (findCredential).
 */
export * from './types.js';
