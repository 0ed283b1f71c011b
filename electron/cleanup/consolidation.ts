import path from 'node:path';
import { z } from 'zod';
import type { Finding, MergePlan, MergeResult } from '../../shared/api/cleanup.js';
import type { Scope } from '../../shared/note.js';
import type { MemoryConfig } from '../memory/config-schema.js';
import { cleanupStateDir, readJsonState, writeJsonState } from './state-dir.js';
import { reportedOr } from '../memory/unexpected-error.js';

/**
 * Background consolidation (`memory.consolidate.auto`). When on, a round starts two
 * minutes after start, at most once per cooldown (the last run time is persisted, so restarts do
 * not run it again early), and merges up to maxMerges same-topic groups with the small model, via
 * the same plan → apply path as the page. It never acts on other findings, never merges a group
 * that was dismissed, and never applies a manual (concatenated) draft: if the model fails for a
 * group, that group is left for a person.
 *
 * On/off: `auto: true|false` decides; `"subscribers"` (the default) is on only when the sync
 * service's last answer said the account or one of its teams has a paid plan, and off for free
 * accounts and when the plan is unknown (sync off, signed out). A project config can turn it off,
 * never on — the core's layered config already enforces that, so `consolidate` arrives resolved.
 */
export const FIRST_ROUND_DELAY_MS = 2 * 60 * 1000;
/** How soon a round that was skipped (off, no model) is reconsidered. */
export const RECHECK_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Never two rounds closer than this, whatever cooldownHours says (0 included). */
const MIN_GAP_MS = 60 * 1000;

export type KnownPlan = 'paid' | 'free' | null;

/** What consolidation needs of the cleanup service (CleanupService fits). */
export interface ConsolidationTarget {
  findings(input: { scope: 'both' }): Promise<Finding[]>;
  modelStatus(): Promise<{ available: boolean; reason: string | null }>;
  planMerge(input: { ids: string[]; scope: Scope; draft: 'model' }): Promise<MergePlan>;
  applyMerge(plan: MergePlan, reason?: string): Promise<MergeResult>;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface ConsolidatorOptions {
  target: ConsolidationTarget;
  home: string;
  /** Which project the persisted last-run time belongs to ('user' when there is no project). */
  stateKey: string;
  /** The resolved memory.consolidate settings. */
  settings: () => MemoryConfig['consolidate'];
  /** What the sync service's last answer said about the plan; null when unknown. */
  lastKnownPlan: () => KnownPlan;
  now: () => number;
  timers?: Timers;
  /** Told about every round (for logs and tests). */
  onRound?: (report: RoundReport) => void;
}

export interface RoundReport {
  at: number;
  ran: boolean;
  /** Why no round ran (off, cooldown, no model). */
  skipped?: string;
  merged: MergeResult[];
  /** Groups left alone and why (model draft failed, merge refused). */
  left: Array<{ findingId: string; reason: string }>;
}

export function consolidationEnabled(auto: MemoryConfig['consolidate']['auto'], plan: KnownPlan): boolean {
  if (auto === true) return true;
  if (auto === false) return false;
  return plan === 'paid';
}

const StateSchema = z.object({ version: z.literal(1), lastRunAt: z.record(z.string(), z.number()) });

export class Consolidator {
  private handle: unknown = null;
  private running: Promise<RoundReport> | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = true;
  private readonly timers: Timers;
  private readonly file: string;

  constructor(private readonly opts: ConsolidatorOptions) {
    this.timers = opts.timers ?? realTimers;
    this.file = path.join(cleanupStateDir(opts.home), 'consolidation.json');
  }

  /** Schedules the first round two minutes from now (or when the cooldown ends, if later). */
  async start(): Promise<void> {
    this.stopped = false;
    const last = await this.lastRunAt();
    const cooldown = this.cooldownMs();
    const at = Math.max(this.opts.now() + FIRST_ROUND_DELAY_MS, last === null ? 0 : last + cooldown);
    this.schedule(at - this.opts.now());
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
  }

  /** Resolves when a timer-started round and its rescheduling are done (tests, orderly shutdown). */
  async whenIdle(): Promise<void> {
    await this.ticking;
  }

  /** The time of the last round, as persisted; null when it never ran here. */
  async lastRunAt(): Promise<number | null> {
    const raw = await readJsonState(this.file).catch(reportedOr(null, 'consolidation: state'));
    const parsed = StateSchema.safeParse(raw);
    return parsed.success ? (parsed.data.lastRunAt[this.opts.stateKey] ?? null) : null;
  }

  private cooldownMs(): number {
    return this.opts.settings().cooldownHours * HOUR_MS;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = this.timers.setTimeout(
      () => {
        this.handle = null;
        this.ticking = this.tick().finally(() => {
          this.ticking = null;
        });
      },
      Math.max(0, delayMs),
    );
  }

  private async tick(): Promise<void> {
    const report = await this.runRound();
    if (this.stopped) return;
    const last = await this.lastRunAt();
    const now = this.opts.now();
    const cooldownEnd = last !== null ? last + this.cooldownMs() : now;
    // After a round: when the cooldown ends. After a skip: when the cooldown ends, or in an hour if
    // it was off or had no model (the plan or the settings may change meanwhile).
    const next = report.ran || cooldownEnd > now ? cooldownEnd : now + RECHECK_MS;
    this.schedule(Math.max(next - now, MIN_GAP_MS));
  }

  /** One round now, if it is on and the cooldown has passed. Concurrent calls share one round. */
  runRound(): Promise<RoundReport> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<RoundReport> {
    const at = this.opts.now();
    const report: RoundReport = { at, ran: false, merged: [], left: [] };
    const finish = (skipped?: string): RoundReport => {
      if (skipped) report.skipped = skipped;
      this.opts.onRound?.(report);
      return report;
    };
    const settings = this.opts.settings();
    if (!consolidationEnabled(settings.auto, this.opts.lastKnownPlan())) {
      return finish(
        settings.auto === 'subscribers'
          ? 'background consolidation is on only for paid plans ("auto": "subscribers") and the plan is not known to be paid'
          : 'background consolidation is off ("auto": false)',
      );
    }
    const last = await this.lastRunAt();
    if (last !== null && at < last + this.cooldownMs())
      return finish('the cooldown since the last round has not passed');
    const model = await this.opts.target.modelStatus();
    if (!model.available) return finish(model.reason ?? 'no model is configured');

    // Record the run before merging: a crash mid-round must not make the next start run again at once.
    await this.recordRun(at);
    report.ran = true;
    const groups = (await this.opts.target.findings({ scope: 'both' }))
      .filter((f) => f.kind === 'same_topic')
      .sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0) || (a.id < b.id ? -1 : 1))
      .slice(0, settings.maxMerges);
    for (const group of groups) {
      try {
        const plan = await this.opts.target.planMerge({
          ids: group.noteIds,
          scope: group.scope,
          draft: 'model',
        });
        if (plan.draftSource !== 'model') {
          report.left.push({ findingId: group.id, reason: plan.fallback ?? 'the model gave no draft' });
          continue;
        }
        report.merged.push(await this.opts.target.applyMerge(plan, 'background consolidation'));
      } catch (err) {
        report.left.push({ findingId: group.id, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    return finish();
  }

  private async recordRun(at: number): Promise<void> {
    const raw = await readJsonState(this.file).catch(reportedOr(null, 'consolidation: state'));
    const parsed = StateSchema.safeParse(raw);
    const state = parsed.success ? parsed.data : { version: 1 as const, lastRunAt: {} };
    state.lastRunAt[this.opts.stateKey] = at;
    await writeJsonState(this.file, state);
  }
}
