import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { withDirLock } from '../memory/dir-lock.js';
import { readFileOrNull, writeFileAtomic } from './atomic-file.js';

/**
 * Where the sync access token is kept. Never plugins.json or cloud.json. The CLI uses
 * FileTokenStore (a mode-0600 file); the desktop app plugs in an implementation on Electron's
 * safeStorage (electron/main), which this core never imports.
 */
export interface TokenStore {
  get(origin: string): Promise<string | null>;
  set(origin: string, token: string): Promise<void>;
  clear(origin?: string): Promise<void>;
  /**
   * Runs `fn` holding this store against every other process that uses it (renewing a rotating
   * refresh token: read, refresh, write). Absent where one process owns the store (safeStorage).
   */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
}

/** How long a renewal waits for another process's renewal of the same file (a slow provider). */
const EXCLUSIVE_WAIT_MS = 60_000;

const TokenFileSchema = z.object({ tokens: z.record(z.string(), z.string()) });

export class FileTokenStore implements TokenStore {
  constructor(readonly file: string) {}

  /** A lock file beside the token file (electron/memory/dir-lock.ts: pid-checked, taken over when stale). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return withDirLock(path.dirname(this.file), fn, { timeoutMs: EXCLUSIVE_WAIT_MS });
  }

  private async read(): Promise<Record<string, string>> {
    const text = await readFileOrNull(this.file);
    if (text === null) return {};
    const parsed = TokenFileSchema.safeParse(safeJson(text));
    return parsed.success ? parsed.data.tokens : {};
  }

  async get(origin: string): Promise<string | null> {
    return (await this.read())[origin] ?? null;
  }

  async set(origin: string, token: string): Promise<void> {
    const tokens = await this.read();
    tokens[origin] = token;
    await this.write(tokens);
  }

  async clear(origin?: string): Promise<void> {
    if (origin === undefined) {
      await fs.rm(this.file, { force: true });
      return;
    }
    const tokens = await this.read();
    delete tokens[origin];
    await this.write(tokens);
  }

  private async write(tokens: Record<string, string>): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ tokens }, null, 2) + '\n', { mode: 0o600 });
  }
}

/** For tests and embedders that must not touch the disk. */
export class MemoryTokenStore implements TokenStore {
  private tokens = new Map<string, string>();
  async get(origin: string): Promise<string | null> {
    return this.tokens.get(origin) ?? null;
  }
  async set(origin: string, token: string): Promise<void> {
    this.tokens.set(origin, token);
  }
  async clear(origin?: string): Promise<void> {
    if (origin === undefined) this.tokens.clear();
    else this.tokens.delete(origin);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
