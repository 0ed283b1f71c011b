import type { DraftKind, Finding, MergePlan, MergeResult, ModelStatus } from '../../shared/api/cleanup.js';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/note.js';
import { projectUsageKey } from '../memory/usage.js';
import type { MemoryCore } from '../memory/types.js';
import { findingsOf, type AnalysedFinding } from './analyze-scope.js';
import type { MergeSync } from './merge-sync-port.js';
import { DismissalStore } from './dismissals.js';
import { FindingsAnalyser } from './findings-analyser.js';
import { applyMerge, planManualMerge, resolveMergeNotes } from './merge.js';
import { insecureUrlProblem } from '../../shared/secure-url.js';
import { BoundKeyStore } from './model/bound-key.js';
import type { KeyStore } from './model/key-store.js';
import { modelDraft } from './model/model-draft.js';
import { readModelSettings, writeModelSettings, type ModelSettings } from './model/settings.js';

export interface CleanupServiceOptions {
  core: MemoryCore;
  /** Where the model's API key lives (the CLI's 0600 file, safeStorage in the desktop app). */
  keyStore: KeyStore;
  /** The link to the sync engine (commitFirst with sync on), when this process syncs. */
  sync?: MergeSync | null;
  /**
   * Analyse in a worker thread (long-running processes: the app, the web bridge), so requests are
   * never queued behind the analysis. Off by default (a one-shot CLI waits for it anyway).
   */
  analysisWorker?: boolean;
}

/** The one-line reason 生成合并建议 is disabled when no model is configured. */
export const NO_MODEL_REASON =
  'No model is configured: set an OpenAI-compatible base URL and model to get merge suggestions.';

/**
 * 待整理 over one memory core: findings (with dismissals), merge planning with a manual or model
 * draft, applying a plan, and the model settings. The API handlers and background consolidation
 * both call this, so the page and the background take the same path.
 */
export class CleanupService {
  readonly dismissals: DismissalStore;
  private readonly analyser: FindingsAnalyser;

  constructor(private readonly opts: CleanupServiceOptions) {
    this.dismissals = new DismissalStore(opts.core.home);
    this.analyser = new FindingsAnalyser(opts.core, { worker: opts.analysisWorker ?? false });
  }

  /** Stops the analysis worker, if one runs. */
  close(): Promise<void> {
    return this.analyser.close();
  }

  private get core(): MemoryCore {
    return this.opts.core;
  }

  /** Key dismissals are stored under: 'user', or the project's usage key (its id, else its path). */
  scopeKey(scope: Scope): string {
    const p = this.core.project;
    return scope === 'user' ? 'user' : p ? projectUsageKey(p.id, p.root) : 'project-none';
  }

  /** Every finding of the selected scopes, with their notes' current hashes. */
  async analyse(selection: Scope | 'both' = 'both'): Promise<AnalysedFinding[]> {
    const scopes: Scope[] = selection === 'both' ? ['project', 'user'] : [selection];
    const out: AnalysedFinding[] = [];
    // "Unused" means neither recalled nor edited: take in what agents recalled since the last look.
    await this.core.usage.refresh();
    for (const scope of scopes) {
      const store = this.core.store(scope);
      if (!store) continue;
      // The notes are read before the analysis is awaited: both are of the same store version.
      const input = {
        scope,
        notes: store.list(),
        linkExists: (id: string) => this.core.resolveLink(id) !== null,
        usage: this.core.usage.all(scope),
        now: this.core.now(),
        unusedDays: this.core.config.consolidate.unusedDays,
        projectRoot: scope === 'project' ? (this.core.project?.root ?? null) : null,
      };
      out.push(...(await findingsOf(input, await this.analyser.analyse(scope))));
    }
    return out;
  }

  async findings(input: { scope?: Scope | 'both'; includeDismissed?: boolean } = {}): Promise<Finding[]> {
    const all = await this.analyse(input.scope ?? 'both');
    const dismissed = new Map<Scope, Record<string, { hashes: Record<string, string>; at: number }>>();
    const shown: Finding[] = [];
    for (const f of all) {
      if (!input.includeDismissed) {
        let d = dismissed.get(f.scope);
        if (!d) {
          d = await this.dismissals.list(this.scopeKey(f.scope));
          dismissed.set(f.scope, d);
        }
        if (DismissalStore.matches(d[f.id], f.hashes)) continue;
      }
      const { hashes: _hashes, ...finding } = f;
      shown.push(finding);
    }
    return shown;
  }

  async dismiss(findingId: string): Promise<{ findingId: string; hashes: Record<string, string> }> {
    const [one] = await this.dismissMany([findingId]);
    return one!;
  }

  /**
   * Dismisses findings (a group at once: one analysis and one write per scope, not one per finding).
   * All or nothing: an id that is not a current finding refuses the whole call.
   */
  async dismissMany(
    findingIds: readonly string[],
  ): Promise<Array<{ findingId: string; hashes: Record<string, string> }>> {
    const out: Array<{ findingId: string; hashes: Record<string, string> }> = [];
    const byScope = groupByScope(findingIds);
    const writes: Array<[Scope, Record<string, Record<string, string>>]> = [];
    for (const [scope, ids] of byScope) {
      const current = new Map((await this.analyse(scope)).map((f) => [f.id, f.hashes]));
      const entries: Record<string, Record<string, string>> = {};
      for (const findingId of ids) {
        const hashes = current.get(findingId);
        if (!hashes)
          throw new AppError(
            'not_found',
            `no current finding "${findingId}" (it may be resolved already); list them again`,
          );
        entries[findingId] = hashes;
        out.push({ findingId, hashes });
      }
      writes.push([scope, entries]);
    }
    const at = this.core.now();
    for (const [scope, entries] of writes) await this.dismissals.dismiss(this.scopeKey(scope), entries, at);
    return out;
  }

  /** Undo of dismissals: the findings show again (those that still apply). */
  async undismiss(findingIds: readonly string[]): Promise<{ findingIds: string[] }> {
    for (const [scope, ids] of groupByScope(findingIds))
      await this.dismissals.undismiss(this.scopeKey(scope), ids);
    return { findingIds: [...findingIds] };
  }

  // ---------- model ----------

  async modelSettings(): Promise<ModelSettings> {
    return readModelSettings(this.core.home);
  }

  async modelStatus(): Promise<ModelStatus> {
    const s = await this.modelSettings();
    const hasApiKey = (await this.apiKey().keyFor(s.baseUrl)) !== null;
    const available = s.baseUrl !== null && s.model !== null;
    return {
      available,
      reason: available ? null : NO_MODEL_REASON,
      baseUrl: s.baseUrl,
      model: s.model,
      hasApiKey,
      timeoutMs: s.timeoutMs,
    };
  }

  async configureModel(input: {
    baseUrl: string | null;
    model: string | null;
    apiKey?: string | null;
    timeoutMs?: number;
  }): Promise<ModelStatus> {
    if (input.baseUrl !== null) {
      let url: URL;
      try {
        url = new URL(input.baseUrl);
      } catch {
        throw new AppError('invalid_input', `"${input.baseUrl}" is not a URL`);
      }
      const problem = insecureUrlProblem(url);
      if (problem) throw new AppError('invalid_input', `the model's base URL ${problem}`);
    }
    const current = await this.modelSettings();
    const key = this.apiKey();
    await key.keyFor(current.baseUrl); // binds a key stored by an older version to the URL it was used with
    await writeModelSettings(this.core.home, {
      baseUrl: input.baseUrl,
      model: input.model,
      timeoutMs: input.timeoutMs ?? current.timeoutMs,
    });
    // A key goes only to the URL it was entered for: a new URL without a new key drops it.
    if (input.apiKey !== undefined) await key.set(input.baseUrl, input.apiKey);
    else await key.keepOnlyFor(input.baseUrl);
    return this.modelStatus();
  }

  private apiKey(): BoundKeyStore {
    return new BoundKeyStore(this.opts.keyStore);
  }

  // ---------- merge ----------

  /**
   * Plans a merge of 2–6 notes of one scope. `draft: 'model'` asks the model; on any failure (or
   * with no model configured) the plan carries the manual draft and `fallback` says why.
   */
  async planMerge(input: {
    ids: string[];
    scope?: Scope;
    draft?: DraftKind;
    signal?: AbortSignal;
  }): Promise<MergePlan> {
    const { scope, store, notes } = resolveMergeNotes(this.core, input.ids, input.scope);
    const plan = planManualMerge(scope, notes);
    if ((input.draft ?? 'manual') !== 'model') return plan;
    const settings = await this.modelSettings();
    if (settings.baseUrl === null || settings.model === null) return { ...plan, fallback: NO_MODEL_REASON };
    const result = await modelDraft({
      notes,
      baseUrl: settings.baseUrl,
      model: settings.model,
      apiKey: await this.apiKey().keyFor(settings.baseUrl),
      timeoutMs: settings.timeoutMs,
      // The limit of the store the merged note is written to, as applyMerge checks it (the user
      // config's for the user scope; core.config is project-layered).
      maxNoteBytes: store.maxNoteBytes,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    if (!result.ok)
      return { ...plan, fallback: `${result.reason}; showing all originals joined instead (手动合并)` };
    return {
      ...plan,
      draft: result.draft,
      draftSource: 'model',
      ...(result.notes.length ? { remarks: result.notes } : {}),
    };
  }

  async applyMerge(plan: MergePlan, reason?: string): Promise<MergeResult> {
    return applyMerge(this.core, plan, {
      sync: this.opts.sync ?? null,
      ...(reason ? { reason } : {}),
    });
  }
}

/** Finding ids (`kind:scope:…`) by the scope they name; an id naming none is refused. */
function groupByScope(findingIds: readonly string[]): Map<Scope, string[]> {
  const out = new Map<Scope, string[]>();
  for (const id of findingIds) {
    const scope = id.split(':')[1];
    if (scope !== 'project' && scope !== 'user')
      throw new AppError('invalid_input', `"${id}" is not a finding id`);
    let list = out.get(scope);
    if (!list) out.set(scope, (list = []));
    list.push(id);
  }
  return out;
}
