import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import {
  Consolidator,
  FIRST_ROUND_DELAY_MS,
  RECHECK_MS,
  type KnownPlan,
  type RoundReport,
  type Timers,
} from '../../electron/cleanup/consolidation.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { DAY, sandbox, snapshotDir, type Sandbox, type TestClock } from './helpers.js';
import { startStandInModel, type StandInModel } from './model-standin.js';

const HOUR = 60 * 60 * 1000;

/** Timers driven by the test clock: nothing sleeps; `fireNext` jumps the clock to the next timer. */
class ClockTimers implements Timers {
  pending: Array<{ at: number; fn: () => void; id: number }> = [];
  private ids = 0;
  constructor(private readonly clock: TestClock) {}
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.pending.push({ at: this.clock.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }
  /** Delay from now of the one pending timer. */
  nextDelay(): number {
    expect(this.pending).toHaveLength(1);
    return this.pending[0]!.at - this.clock.t;
  }
  fireNext(): void {
    const next = this.pending.sort((a, b) => a.at - b.at).shift()!;
    this.clock.t = next.at;
    next.fn();
  }
}

let sb: Sandbox;
let model: StandInModel;
afterEach(async () => {
  await model?.close();
  await sb?.close();
});

interface Rig {
  consolidator: Consolidator;
  timers: ClockTimers;
  reports: RoundReport[];
  nextReport(): Promise<RoundReport>;
  svc: CleanupService;
}

function rig(s: Sandbox, plan: () => KnownPlan): Rig {
  const svc = new CleanupService({ core: s.core, keyStore: new MemoryKeyStore() });
  const timers = new ClockTimers(s.clock);
  const reports: RoundReport[] = [];
  let waiting: ((r: RoundReport) => void) | null = null;
  const consolidator = new Consolidator({
    target: svc,
    home: s.home,
    stateKey: svc.scopeKey('project'),
    settings: () => s.core.config.consolidate,
    lastKnownPlan: plan,
    now: s.clock.now,
    timers,
    onRound: (r) => {
      reports.push(r);
      waiting?.(r);
      waiting = null;
    },
  });
  return {
    consolidator,
    timers,
    reports,
    svc,
    nextReport: () => new Promise<RoundReport>((resolve) => (waiting = resolve)),
  };
}

/** Two same-topic groups (one much closer than the other), a dismissed-to-be group, and a broken link. */
async function seed(s: Sandbox): Promise<void> {
  const t = s.clock.t;
  await s.put('project', {
    id: 'utc-a',
    summary: 'Log timestamps are in UTC',
    tags: ['logging'],
    createdAt: t - 9 * DAY,
  });
  await s.put('project', {
    id: 'utc-b',
    summary: 'Log timestamps are in UTC',
    tags: ['logging'],
    createdAt: t - 8 * DAY,
  });
  await s.put('project', {
    id: 'pnpm-a',
    summary: 'User prefers pnpm over npm for installing packages',
    tags: ['tooling'],
    createdAt: t - 7 * DAY,
  });
  await s.put('project', {
    id: 'pnpm-b',
    summary: 'Prefer pnpm instead of npm when installing packages',
    tags: ['tooling', 'pnpm'],
    createdAt: t - 6 * DAY,
  });
  await s.put('project', {
    id: 'broken',
    summary: 'Broken link holder',
    body: 'see [[nowhere]]',
    createdAt: t - 5 * DAY,
  });
}

const goodAnswer = JSON.stringify({
  summary: 'Merged by the model',
  type: 'project',
  tags: ['merged'],
  body: 'One note now.',
});

async function withModel(s: Sandbox, svc: CleanupService, content = goodAnswer): Promise<void> {
  model = await startStandInModel();
  model.respond({ kind: 'content', content });
  await svc.configureModel({ baseUrl: model.baseUrl, model: 'stand-in' });
  void s;
}

describe('background consolidation (clock and timers injected, stand-in model server)', () => {
  it('"subscribers" with a paid plan: first round two minutes after start, up to maxMerges groups, model path, nothing else touched', async () => {
    sb = await sandbox({ OHARNESS_MEMORY_CONSOLIDATE_MAX_MERGES: '1' });
    await seed(sb);
    const r = rig(sb, () => 'paid');
    await withModel(sb, r.svc);
    await r.svc.dismiss('same_topic:project:pnpm-a,pnpm-b');
    await sb.put('project', {
      id: 'utc-c',
      summary: 'Logs use UTC timestamps',
      tags: ['logging'],
      createdAt: sb.clock.t - DAY,
    });
    const startedAt = sb.clock.t;
    await r.consolidator.start();
    expect(r.timers.nextDelay()).toBe(FIRST_ROUND_DELAY_MS);
    const brokenBefore = await sb.raw('project', 'broken');

    const done = r.nextReport();
    r.timers.fireNext();
    const report = await done;
    expect(report.at).toBe(startedAt + FIRST_ROUND_DELAY_MS);
    expect(report.ran).toBe(true);
    expect(report.merged).toHaveLength(1);
    expect(report.merged[0]).toMatchObject({ keptId: 'utc-a', deletedIds: ['utc-b', 'utc-c'] });
    expect(await sb.raw('project', 'utc-a')).toContain('Merged by the model');
    // The dismissed group and the broken-link note are left alone.
    expect(await sb.raw('project', 'pnpm-a')).not.toBeNull();
    expect(await sb.raw('project', 'pnpm-b')).not.toBeNull();
    expect(await sb.raw('project', 'broken')).toBe(brokenBefore);
    const backups = await sb.core.user.backups.list(50);
    expect(backups.every((b) => b.reason === 'background consolidation')).toBe(true);

    // Next round only after the cooldown (24 h), persisted across a restart.
    await r.consolidator.whenIdle();
    expect(r.timers.nextDelay()).toBe(24 * HOUR);
    r.consolidator.stop();
    const again = rig(sb, () => 'paid');
    sb.clock.advance(HOUR);
    await again.consolidator.start();
    expect(again.timers.nextDelay()).toBe(23 * HOUR);
    expect(await again.consolidator.runRound()).toMatchObject({
      ran: false,
      skipped: expect.stringMatching(/cooldown/),
    });
    again.consolidator.stop();
  });

  it.each([
    ['subscribers', 'free', false],
    ['subscribers', null, false],
    ['subscribers', 'paid', true],
    ['true', null, true],
    ['false', 'paid', false],
  ] as const)('auto=%s with plan %s → runs: %s', async (auto, plan, runs) => {
    sb = await sandbox({ OHARNESS_MEMORY_CONSOLIDATE_AUTO: auto });
    await seed(sb);
    const r = rig(sb, () => plan);
    await withModel(sb, r.svc);
    const before = await snapshotDir(sb.memoryDir);
    const report = await r.consolidator.runRound();
    expect(report.ran).toBe(runs);
    if (!runs) {
      expect(report.skipped).toMatch(auto === 'subscribers' ? /paid plans/ : /off/);
      expect(await snapshotDir(sb.memoryDir)).toEqual(before);
      expect(await r.consolidator.lastRunAt()).toBeNull();
    } else {
      expect(report.merged.length).toBe(2);
    }
  });

  it('a project config can turn it off, never on', async () => {
    sb = await sandbox();
    await fs.writeFile(
      path.join(sb.home, 'config.json'),
      JSON.stringify({ memory: { consolidate: { auto: true } } }),
    );
    await fs.mkdir(path.join(sb.root, '.oharness'), { recursive: true });
    await fs.writeFile(
      path.join(sb.root, '.oharness', 'config.json'),
      JSON.stringify({ memory: { consolidate: { auto: false } } }),
    );
    await sb.reopen();
    await seed(sb);
    let r = rig(sb, () => 'paid');
    expect(await r.consolidator.runRound()).toMatchObject({
      ran: false,
      skipped: expect.stringMatching(/off/),
    });

    await fs.writeFile(
      path.join(sb.home, 'config.json'),
      JSON.stringify({ memory: { consolidate: { auto: false } } }),
    );
    await fs.writeFile(
      path.join(sb.root, '.oharness', 'config.json'),
      JSON.stringify({ memory: { consolidate: { auto: true } } }),
    );
    await sb.reopen();
    r = rig(sb, () => 'paid');
    await withModel(sb, r.svc);
    expect(await r.consolidator.runRound()).toMatchObject({
      ran: false,
      skipped: expect.stringMatching(/off/),
    });
  });

  it('never applies a concatenated draft: when the model fails the groups are left for a person', async () => {
    sb = await sandbox({ OHARNESS_MEMORY_CONSOLIDATE_AUTO: 'true' });
    await seed(sb);
    const r = rig(sb, () => null);
    await withModel(sb, r.svc, 'I cannot do that.');
    const before = await snapshotDir(sb.memoryDir);
    const report = await r.consolidator.runRound();
    expect(report).toMatchObject({ ran: true, merged: [] });
    expect(report.left).toHaveLength(2);
    expect(report.left[0]!.reason).toMatch(/JSON object/);
    expect(await snapshotDir(sb.memoryDir)).toEqual(before);
  });

  it('without a model configured a round is skipped and reconsidered an hour later', async () => {
    sb = await sandbox({ OHARNESS_MEMORY_CONSOLIDATE_AUTO: 'true' });
    await seed(sb);
    const r = rig(sb, () => null);
    await r.consolidator.start();
    const done = r.nextReport();
    r.timers.fireNext();
    expect(await done).toMatchObject({
      ran: false,
      skipped: expect.stringMatching(/No model is configured/),
    });
    await r.consolidator.whenIdle();
    expect(r.timers.nextDelay()).toBe(RECHECK_MS);
    expect(await r.consolidator.lastRunAt()).toBeNull();
    r.consolidator.stop();
    expect(r.timers.pending).toEqual([]);
  });
});
