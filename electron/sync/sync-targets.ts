import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { parseJsonText } from '../../shared/parse-json.js';
import { readFileOrNull, writeFileAtomic } from './atomic-file.js';

/**
 * The toggle and the account binding of each scope, kept in `$OHARNESS_HOME/plugins.json` under
 * `runtimePlugins[id=memory].config.syncTargets[sha256(stableScopeKey)]`.
 * Never a secret here: tokens live in a TokenStore, the cloud URL in cloud.json.
 *
 * `userId`/`origin` are null until the scope first syncs: the first account and origin that sync it
 * bind it for good (another account or origin pauses sync; there is no one-click reassignment).
 * A scope without an entry is on (signing in turns sync on by default); an entry with
 * `enabled: false` stays off across restarts and re-login until turned on explicitly.
 */
export const SyncTargetSchema = z.looseObject({
  userId: z.string().nullable(),
  origin: z.string().nullable(),
  enabled: z.boolean(),
});
export type SyncTarget = z.infer<typeof SyncTargetSchema>;

const PluginsFileSchema = z.looseObject({
  runtimePlugins: z
    .array(z.looseObject({ id: z.string().optional(), config: z.unknown().optional() }))
    .optional(),
});

type Json = Record<string, unknown>;

export class SyncTargetsStore {
  constructor(readonly file: string) {}

  private async readRaw(): Promise<Json> {
    const text = await readFileOrNull(this.file);
    if (text === null || text.trim() === '') return {};
    const data = parseJsonText(
      text,
      (reason) =>
        new AppError(
          'io_error',
          `${this.file} is not valid JSON (${reason}); fix or remove it — sync settings are not rewritten until then`,
        ),
    );
    const parsed = PluginsFileSchema.safeParse(data);
    if (!parsed.success) {
      throw new AppError(
        'io_error',
        `${this.file} does not have the expected shape (runtimePlugins must be a list); fix it — it is not rewritten until then`,
      );
    }
    return data as Json;
  }

  private static targetsOf(root: Json): Record<string, unknown> | undefined {
    const plugins = root.runtimePlugins as Json[] | undefined;
    const memory = plugins?.find((p) => p.id === 'memory');
    const config = memory?.config as Json | undefined;
    const targets = config?.syncTargets;
    return targets && typeof targets === 'object' ? (targets as Record<string, unknown>) : undefined;
  }

  async all(): Promise<Record<string, SyncTarget>> {
    const targets = SyncTargetsStore.targetsOf(await this.readRaw()) ?? {};
    const out: Record<string, SyncTarget> = {};
    for (const [key, value] of Object.entries(targets)) {
      const parsed = SyncTargetSchema.safeParse(value);
      if (parsed.success) out[key] = parsed.data;
    }
    return out;
  }

  async get(keyHash: string): Promise<SyncTarget | null> {
    return (await this.all())[keyHash] ?? null;
  }

  /** Read-modify-write of the scope entries; every other key of plugins.json is kept as it was. */
  async update(fn: (targets: Record<string, SyncTarget | undefined>) => void): Promise<void> {
    const root = await this.readRaw();
    const plugins = Array.isArray(root.runtimePlugins) ? (root.runtimePlugins as Json[]) : [];
    root.runtimePlugins = plugins;
    let memory = plugins.find((p) => p.id === 'memory');
    if (!memory) {
      memory = { id: 'memory' };
      plugins.push(memory);
    }
    const config = (memory.config && typeof memory.config === 'object' ? memory.config : {}) as Json;
    memory.config = config;
    const targets = (
      config.syncTargets && typeof config.syncTargets === 'object' ? config.syncTargets : {}
    ) as Record<string, SyncTarget | undefined>;
    config.syncTargets = targets;
    fn(targets);
    for (const [key, value] of Object.entries(targets)) if (value === undefined) delete targets[key];
    await writeFileAtomic(this.file, JSON.stringify(root, null, 2) + '\n');
  }

  /** The toggle (关闭云同步): sets `enabled` for the given scopes, creating unbound entries as needed. */
  async setEnabled(keyHashes: readonly string[], enabled: boolean): Promise<void> {
    await this.update((targets) => {
      for (const key of keyHashes) {
        const current = targets[key];
        targets[key] = current ? { ...current, enabled } : { userId: null, origin: null, enabled };
      }
    });
  }

  /** Binds a scope to the first account and origin that synced it; a bound scope is never rebound. */
  async bind(keyHash: string, binding: { userId: string; origin: string }): Promise<SyncTarget> {
    let result: SyncTarget | undefined;
    await this.update((targets) => {
      const current = targets[keyHash];
      if (current?.userId && current.origin) {
        result = current;
        return;
      }
      result = { ...(current ?? { enabled: true }), userId: binding.userId, origin: binding.origin };
      targets[keyHash] = result;
    });
    return result!;
  }
}
