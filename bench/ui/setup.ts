/**
 * What the bench/ui benches share: Debian's headless Chromium, a temp home seeded with the demo
 * sample (the baseline) or with generated notes, the real web bridge over it, and the API called
 * over HTTP with the bridge's secret header.
 */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  defaultSeedDirs,
  generatedNotes,
  seedGeneratedNotes,
  seedSampleNotes,
} from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { BRIDGE_SECRET_HEADER } from '../../shared/web-bridge.js';

export const repo = path.resolve(import.meta.dirname, '../..');
const staticDir = path.join(repo, 'dist', 'renderer');

export function requireRenderer(): void {
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    console.error('Build the renderer first: npm run build:renderer');
    process.exit(1);
  }
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export type Seed = (home: string, project: string) => Promise<void>;

export const sampleSeed: Seed = (home, project) =>
  seedSampleNotes(defaultSeedDirs(home, project)).then(() => undefined);

/** `perScope` generated notes in each scope (5,000 each is the per-scope limit: 10,000 notes). */
export function generatedSeed(perScope: number): Seed {
  return async (home, project) => {
    const dirs = defaultSeedDirs(home, project);
    await seedGeneratedNotes(dirs.projectMemoryDir, generatedNotes(perScope, 'project'));
    await seedGeneratedNotes(dirs.userMemoryDir, generatedNotes(perScope, 'user'));
  };
}

export interface BenchBridge {
  bridge: WebBridge;
  notes: number;
  /** One API call over HTTP: wall time, the bridge's CPU time (this process), bytes received. */
  invoke(
    method: string,
    input: unknown,
  ): Promise<{ ms: number; cpuMs: number; bytes: number; body: unknown }>;
  close(): Promise<void>;
}

export async function startBench(seed: Seed): Promise<BenchBridge> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-ui-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await seed(home, project);
  const bridge = await startWebBridge({ home, projectRoot: project, port: 0, staticDir, watch: false });
  const notes =
    (bridge.context.core.store('project')?.list().length ?? 0) +
    (bridge.context.core.store('user')?.list().length ?? 0);
  return {
    bridge,
    notes,
    async invoke(method, input) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${bridge.port}/api/invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [BRIDGE_SECRET_HEADER]: bridge.secret },
        body: JSON.stringify({ method, input }),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (!res.ok) throw new Error(`${method}: HTTP ${res.status} ${text.slice(0, 200)}`);
      return {
        ms,
        cpuMs: (cpu.user + cpu.system) / 1000,
        bytes: Buffer.byteLength(text),
        body: JSON.parse(text),
      };
    },
    async close() {
      await bridge.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const machine = () =>
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim().split(' ').slice(0, 2).join(' ') ?? 'cpu'}, load ${os.loadavg()[0]!.toFixed(1)}`;
