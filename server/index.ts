/** The self-hostable Memory Desk sync server, for embedding and for tests. */
export {
  startSyncServer,
  createStorage,
  DEFAULT_RATE_LIMIT,
  type RunningSyncServer,
  type SyncServerOptions,
} from './app.js';
export { signUserToken } from './token.js';
export { FsStorage } from './storage/fs-storage.js';
export { S3Storage, type S3StorageOptions } from './storage/s3-storage.js';
export { UnavailableStorage } from './storage/unavailable-storage.js';
export { PreconditionFailedError, StorageUnavailableError, type StorageAdapter } from './storage/storage.js';
export { DEFAULT_ENTITLEMENTS, type Entitlements } from './entitlements.js';
