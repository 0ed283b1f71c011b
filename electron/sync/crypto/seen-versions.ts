import { z } from 'zod';
import { readFileOrNull, writeFileAtomic } from '../atomic-file.js';
import type { ScopeLabel } from './account-keys.js';
import { EncryptionError } from './errors.js';

/**
 * Rollback and replay detection for an encrypted account, kept on disk (one file per account key):
 * per sealed scope the highest manifest version this device has seen, and per note the highest
 * `seen` counter of its sealed entry records (sealed-object.ts: the scope version the writer had
 * seen, bound in the record's AEAD). In an honest history a note's counter only grows (a writer
 * has always seen the version that wrote the previous record), and every record's counter is below
 * the version of the manifest that holds it. So the server cannot make this device accept
 * - a manifest older than one it has seen (`rollback`);
 * - an old entry of a note replayed inside a newer manifest, once this device has seen a later
 *   entry of that note (`rollback`);
 * - a manifest whose version is not above what its own entries' writers had seen (`rollback`).
 * What stays undetectable is listed in docs/security.md.
 */
const FileSchema = z.object({
  keyId: z.string(),
  scopes: z.record(z.string(), z.number().int().nonnegative()),
  notes: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())).default({}),
});
type SeenFile = z.infer<typeof FileSchema>;

/** One opened entry record, as far as this check needs it. */
export interface SeenRecord {
  id: string;
  seen: number;
}

function describe(scope: ScopeLabel): string {
  return scope === 'user' ? 'your own notes' : scope;
}

const STOPS = 'Nothing was written; sync of this scope stops until whoever runs the server restores it.';

export class SeenVersions {
  private cache: SeenFile | null = null;

  constructor(
    readonly file: string,
    readonly keyId: string,
  ) {}

  private async load(): Promise<SeenFile> {
    if (this.cache) return this.cache;
    const text = await readFileOrNull(this.file);
    const parsed = text === null ? null : FileSchema.safeParse(safeJson(text));
    this.cache =
      parsed?.success && parsed.data.keyId === this.keyId
        ? parsed.data
        : { keyId: this.keyId, scopes: {}, notes: {} };
    return this.cache;
  }

  /** The highest manifest version of the scope seen here (0: none): what a new record carries. */
  async highest(scope: ScopeLabel): Promise<number> {
    return (await this.load()).scopes[scope] ?? 0;
  }

  /**
   * Checks a manifest version and the entry records that came with it, then remembers them
   * (one write when anything grew). Throws before anything is remembered.
   */
  async observe(scope: ScopeLabel, version: number, records: readonly SeenRecord[] = []): Promise<void> {
    const file = await this.load();
    const highest = file.scopes[scope];
    if (highest !== undefined && version < highest)
      throw new EncryptionError(
        'rollback',
        `the sync server showed an older state of ${describe(scope)} (version ${version}) than this device has already seen (${highest}): it may have been rolled back or tampered with. ${STOPS}`,
      );
    const notes = file.notes[scope] ?? {};
    for (const r of records) {
      if (r.seen >= version)
        throw new EncryptionError(
          'rollback',
          `the sync server showed version ${version} of ${describe(scope)} holding an entry of note ${r.id} written after version ${r.seen}: the version was turned back. ${STOPS}`,
        );
      const before = notes[r.id];
      if (before !== undefined && r.seen < before)
        throw new EncryptionError(
          'rollback',
          `the sync server showed an older entry of note ${r.id} in ${describe(scope)} than this device has already seen: it may have been replayed. ${STOPS}`,
        );
    }
    let grew = highest === undefined || version > highest;
    if (grew) file.scopes[scope] = version;
    for (const r of records) {
      if (notes[r.id] === undefined || r.seen > notes[r.id]!) {
        notes[r.id] = r.seen;
        grew = true;
      }
    }
    file.notes[scope] = notes;
    if (grew) await writeFileAtomic(this.file, JSON.stringify(file) + '\n');
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
