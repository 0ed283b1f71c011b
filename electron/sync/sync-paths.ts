import path from 'node:path';

/** Where the sync engine keeps its files under OHARNESS_HOME. */
export interface SyncPaths {
  home: string;
  /** Baselines, one directory per scope: `memory-sync/<sha256(stableScopeKey)>/`. */
  baselinesDir: string;
  /** Toggle and account binding per scope (no secrets). */
  pluginsFile: string;
  /** The cloud URL (no secrets). */
  cloudFile: string;
  /** The CLI's token file (mode 0600); the desktop app keeps tokens in safeStorage instead. */
  tokenFile: string;
  /** The CLI's end-to-end encryption key file (mode 0600); the desktop app uses safeStorage. */
  keyFile: string;
  /** The highest manifest version seen per encrypted scope (rollback detection). */
  seenDir: string;
}

export function syncPaths(home: string): SyncPaths {
  return {
    home,
    baselinesDir: path.join(home, 'memory-sync'),
    pluginsFile: path.join(home, 'plugins.json'),
    cloudFile: path.join(home, 'cloud.json'),
    tokenFile: path.join(home, 'credentials', 'sync-token.json'),
    keyFile: path.join(home, 'credentials', 'sync-e2ee-key.json'),
    seenDir: path.join(home, 'memory-sync', 'e2ee-seen'),
  };
}
