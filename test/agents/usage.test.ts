import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { boundUsage, createUsageStore, usageDir } from '../../electron/memory/usage.js';
import { TSX_LOADER } from './run-cli.js';
import { tempDir } from '../support/temp-dir.js';

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), 'usage-worker.ts');
const DAY = 24 * 60 * 60 * 1000;

let tmp: string;
let home: string;
let project: string;

async function open(now?: () => number) {
  const { ctx } = await createAppRoot({ home, env: process.env, ...(now ? { now } : {}) }).open({
    projectRoot: project,
  });
  const handlers = createHandlers(ctx);
  return { ctx, call: (m: string, input: unknown) => invokeApi(handlers, m, input) as Promise<never> };
}

function runWorker(count: number): Promise<{ attached: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, worker, home, project, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: tmp },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
}

beforeAll(async () => {
  tmp = await tempDir('usage');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'shop');
  await fs.mkdir(project, { recursive: true });
  // Notes last edited 200 days ago (an injected clock), so only recalls can keep them "used".
  const old = Date.now() - 200 * DAY;
  const { ctx, call } = await open(() => old);
  await ctx.core.registerProject();
  await call('notes.remember', {
    summary: 'Deploy with the blue-green script',
    body: 'Run deploy.sh.',
    type: 'project',
  });
  await call('notes.remember', { summary: 'Pricing cards use fills', body: 'No borders.', type: 'user' });
  await call('notes.remember', {
    summary: 'Unrelated database index note',
    body: 'Never recalled.',
    type: 'project',
  });
  await ctx.core.close();
}, 60_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('recall counts per machine', { timeout: 240_000 }, () => {
  it('4 processes recalling 1,000 times in all: every count adds up exactly', async () => {
    const results = await Promise.all([250, 250, 250, 250].map(runWorker));
    expect(results.map((r) => r.attached)).toEqual([500, 500, 500, 500]);

    const files = (await fs.readdir(usageDir(home))).filter((n) => n.endsWith('.json')).sort();
    expect(files).toHaveLength(2); // user.json and the project's file, nothing else
    const counts: Record<string, number> = {};
    for (const f of files) {
      const data = JSON.parse(await fs.readFile(path.join(usageDir(home), f), 'utf8')) as {
        version: number;
        notes: Record<string, { count: number; lastRecalledAt: number }>;
      };
      expect(data.version).toBe(1);
      for (const [id, u] of Object.entries(data.notes)) counts[id] = u.count;
    }
    expect(Object.values(counts)).toEqual([1000, 1000]);

    // The note editor's API shows them; 待整理 does not call a recalled note unused.
    const { ctx, call } = await open(() => Date.now() + DAY);
    const list = (await call('notes.list', { scope: 'both' })) as {
      notes: Array<{ id: string; summary: string; scope: string }>;
    };
    const deploy = list.notes.find((n) => n.summary.startsWith('Deploy'))!;
    const detail = (await call('notes.get', { id: deploy.id, scope: deploy.scope })) as {
      recallCount: number;
      lastRecalledAt: number | null;
    };
    expect(detail.recallCount).toBe(1000);
    expect(detail.lastRecalledAt).not.toBeNull();
    const { findings } = (await call('cleanup.findings', {})) as {
      findings: Array<{ kind: string; noteIds: string[] }>;
    };
    const unused = findings.filter((f) => f.kind === 'unused').flatMap((f) => f.noteIds);
    const never = list.notes.find((n) => n.summary.startsWith('Unrelated'))!;
    expect(unused).toEqual([never.id]);
    // A preview (notes.recall) does not count.
    await call('notes.recall', { message: 'deploy pricing cards' });
    expect(
      ((await call('notes.get', { id: deploy.id, scope: deploy.scope })) as { recallCount: number })
        .recallCount,
    ).toBe(1000);
    await ctx.core.close();
  });

  it('stays bounded: past MAX entries the least recently recalled are dropped', async () => {
    const map = new Map(
      Array.from({ length: 10 }, (_, i) => [`n${i}`, { count: 1, lastRecalledAt: i }] as const),
    );
    expect([...boundUsage(new Map(map), 4).keys()].sort()).toEqual(['n6', 'n7', 'n8', 'n9']);

    const bigHome = path.join(tmp, 'big-home');
    await fs.mkdir(usageDir(bigHome), { recursive: true });
    const notes = Object.fromEntries(
      Array.from({ length: 20_005 }, (_, i) => [`n${i}`, { count: 1, lastRecalledAt: i }]),
    );
    await fs.writeFile(path.join(usageDir(bigHome), 'user.json'), JSON.stringify({ version: 1, notes }));
    const store = await createUsageStore({ home: bigHome, projectKey: null, now: () => 1e12, persist: true });
    await store.record([{ scope: 'user', id: 'fresh' }]);
    const after = JSON.parse(await fs.readFile(path.join(usageDir(bigHome), 'user.json'), 'utf8')) as {
      notes: Record<string, unknown>;
    };
    expect(Object.keys(after.notes)).toHaveLength(20_000);
    expect(after.notes.fresh).toEqual({ count: 1, lastRecalledAt: 1e12 });
    expect(after.notes.n0).toBeUndefined();
  });
});
