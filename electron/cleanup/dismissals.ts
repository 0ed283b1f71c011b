import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { withDirLock } from '../memory/dir-lock.js';
import { cleanupStateDir, readJsonState, writeJsonState } from './state-dir.js';

/**
 * Dismissed findings, kept on this machine only (`$OHARNESS_HOME/memory-cleanup/dismissals.json`),
 * each stored against the content hashes its notes had when dismissed: when any of them is edited
 * (its hash changes) the dismissal no longer matches and the finding is shown again.
 * Keyed by a scope key ('user' or 'project:<projectId>') so two projects with the same note ids
 * do not share dismissals.
 */
const DismissalSchema = z.object({ hashes: z.record(z.string(), z.string()), at: z.number() });
const DismissalsFileSchema = z.object({
  version: z.literal(1),
  scopes: z.record(z.string(), z.record(z.string(), DismissalSchema)),
});
type DismissalsFile = z.infer<typeof DismissalsFileSchema>;
export type Dismissal = z.infer<typeof DismissalSchema>;

export class DismissalStore {
  readonly file: string;
  private readonly dir: string;

  constructor(home: string) {
    this.dir = cleanupStateDir(home);
    this.file = path.join(this.dir, 'dismissals.json');
  }

  private async read(): Promise<DismissalsFile> {
    const raw = await readJsonState(this.file);
    if (raw === null) return { version: 1, scopes: {} };
    const parsed = DismissalsFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AppError(
        'io_error',
        `${this.file} is not a dismissals file this version understands; fix or remove it`,
      );
    }
    return parsed.data;
  }

  /** Every dismissal of a scope key. */
  async list(scopeKey: string): Promise<Record<string, Dismissal>> {
    return (await this.read()).scopes[scopeKey] ?? {};
  }

  /** True when the finding was dismissed and none of its notes changed since. */
  static matches(dismissal: Dismissal | undefined, currentHashes: Readonly<Record<string, string>>): boolean {
    if (!dismissal) return false;
    const ids = Object.keys(currentHashes);
    if (ids.length !== Object.keys(dismissal.hashes).length) return false;
    return ids.every((id) => dismissal.hashes[id] === currentHashes[id]);
  }

  /** Records dismissals (finding id → its notes' hashes now) in one write. */
  async dismiss(
    scopeKey: string,
    entries: Record<string, Record<string, string>>,
    at: number,
  ): Promise<void> {
    await this.update((file) => {
      const scope = (file.scopes[scopeKey] ??= {});
      for (const [findingId, hashes] of Object.entries(entries)) scope[findingId] = { hashes, at };
    });
  }

  /** Forgets dismissals (undo): those findings are shown again while they still apply. */
  async undismiss(scopeKey: string, findingIds: readonly string[]): Promise<void> {
    await this.update((file) => {
      const scope = file.scopes[scopeKey];
      if (!scope) return;
      for (const id of findingIds) delete scope[id];
    });
  }

  private async update(change: (file: DismissalsFile) => void): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await withDirLock(this.dir, async () => {
      const file = await this.read();
      change(file);
      await writeJsonState(this.file, file);
    });
  }
}
