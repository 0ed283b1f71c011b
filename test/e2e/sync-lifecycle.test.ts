import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/api/handlers.js';
import { startWebBridge } from '../../electron/transports/http/web-bridge.js';
import { RENDERER_DIR } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The sync lifecycle of a long-running process (the web bridge here; the desktop app builds the
 * same composition root, electron/app): one coordinator started with it, the project kept in use
 * by the Memory page, and a clean stop with a request in flight — aborted, nothing half-written.
 */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else out.push(p);
  }
  return out;
}

describe('sync lifecycle with the web bridge', { timeout: 60_000 }, () => {
  it('closing the bridge aborts a request in flight and leaves no half-written file', async () => {
    // A stand-in server that accepts requests and never answers: the round hangs in flight.
    const seen: Array<{ url: string; aborted: Promise<void> }> = [];
    const hanging = http.createServer((req) => {
      seen.push({ url: req.url ?? '', aborted: new Promise((resolve) => req.socket.once('close', resolve)) });
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const root = await tempDir('e2e-lifecycle');
    const home = path.join(root, 'home');
    const projectRoot = path.join(root, 'project');
    await fs.mkdir(projectRoot, { recursive: true });
    const bridge = await startWebBridge({
      home,
      projectRoot,
      port: 0,
      staticDir: RENDERER_DIR,
      sync: { autoStart: true },
    });
    try {
      await bridge.context.core.registerProject();
      const handlers = createHandlers(bridge.context);
      // Signed in while sync is off: no request is made to verify it.
      await handlers['sync.setEnabled']({ enabled: false });
      expect(await handlers['sync.login']({ origin, token: 'token-for-a-server-that-hangs' })).toEqual({
        origin,
      });
      expect(seen).toEqual([]);
      await handlers['sync.setEnabled']({ enabled: true });

      // The Memory page open (sync.markInUse) keeps the project scheduled.
      await handlers['sync.markInUse']({});
      const engine = bridge.sync!.engine;
      const project = engine.servicesOf(bridge.context.core).find((s) => s.scope === 'project')!;
      expect(engine.coordinator.dueAt(project.key)).not.toBeNull();

      const round = handlers['sync.now']({});
      await expect.poll(() => seen.length, { timeout: 30_000 }).toBeGreaterThan(0);
      await bridge.close();
      // The request was aborted (its connection closed), and the round ended.
      await seen[0]!.aborted;
      await round.catch(() => undefined);
      for (const file of await listFiles(path.join(home, 'memory-sync'))) {
        expect(path.basename(file)).not.toMatch(/\.tmp|~$/);
        if (file.endsWith('.json')) JSON.parse(await fs.readFile(file, 'utf8'));
      }
    } finally {
      await bridge.close().catch(() => undefined);
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
