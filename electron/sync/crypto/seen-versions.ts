import { z } from 'zod';
import { readFileOrNull, writeFileAtomic } from '../atomic-file.js';
import type { ScopeLabel } from './account-keys.js';
import { EncryptionError } from './errors.js';

/**
 * Rollback detection for an encrypted account: the highest manifest version this device has seen
 * per sealed scope, kept on disk (one file per account key). The server can replay old sealed data
 * that still authenticates; it cannot make a device that saw version 17 accept version 12 without
 * this check failing. (A replayed single entry inside a newer manifest is not caught here.)
 */
const FileSchema = z.object({
  keyId: z.string(),
  scopes: z.record(z.string(), z.number().int().nonnegative()),
});

export class SeenVersions {
  private cache: Record<string, number> | null = null;

  constructor(
    readonly file: string,
    readonly keyId: string,
  ) {}

  private async load(): Promise<Record<string, number>> {
    if (this.cache) return this.cache;
    const text = await readFileOrNull(this.file);
    const parsed = text === null ? null : FileSchema.safeParse(safeJson(text));
    this.cache = parsed?.success && parsed.data.keyId === this.keyId ? { ...parsed.data.scopes } : {};
    return this.cache;
  }

  /** Refuses a version below the highest seen for the scope; remembers a higher one. */
  async observe(scope: ScopeLabel, version: number): Promise<void> {
    const scopes = await this.load();
    const highest = scopes[scope];
    if (highest !== undefined && version < highest) {
      throw new EncryptionError(
        'rollback',
        `the sync server showed an older state of ${scope === 'user' ? 'your own notes' : scope} (version ${version}) than this device has already seen (${highest}): it may have been rolled back or tampered with. Nothing was written; sync of this scope stops until whoever runs the server restores it.`,
      );
    }
    if (highest === undefined || version > highest) {
      scopes[scope] = version;
      await writeFileAtomic(this.file, JSON.stringify({ keyId: this.keyId, scopes }) + '\n');
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
