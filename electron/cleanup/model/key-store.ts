import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { cleanupStateDir } from '../state-dir.js';

/**
 * Where the model's API key is kept. Never in config.json or plugins.json (files people share and
 * sync). The CLI uses a mode-0600 file under $OHARNESS_HOME; the desktop app will implement this
 * with Electron's safeStorage.
 */
export interface KeyStore {
  get(): Promise<string | null>;
  /** null removes the key. */
  set(key: string | null): Promise<void>;
}

/** `$OHARNESS_HOME/memory-cleanup/model-key`, readable by the owner only. */
export class FileKeyStore implements KeyStore {
  readonly file: string;

  constructor(home: string) {
    this.file = path.join(cleanupStateDir(home), 'model-key');
  }

  async get(): Promise<string | null> {
    try {
      const text = (await fs.readFile(this.file, 'utf8')).trim();
      return text || null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async set(key: string | null): Promise<void> {
    if (key === null) {
      await fs.rm(this.file, { force: true });
      return;
    }
    const dir = path.dirname(this.file);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // Atomic like every write, but the temp file is created 0600 so the key is never readable by others.
    const tmp = path.join(dir, `.model-key.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(key + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(tmp, this.file);
      await fs.chmod(this.file, 0o600);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }
}

/** A key held in memory only (the desktop app before safeStorage is ready; tests). */
export class MemoryKeyStore implements KeyStore {
  constructor(private key: string | null = null) {}
  async get(): Promise<string | null> {
    return this.key;
  }
  async set(key: string | null): Promise<void> {
    this.key = key;
  }
}
