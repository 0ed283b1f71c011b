import { promises as fs } from 'node:fs';
import path from 'node:path';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { BRIDGE_SECRET_HEADER } from '../../shared/web-bridge.js';
import { tempDir } from '../support/temp-dir.js';

export interface BridgeEnv {
  bridge: WebBridge;
  base: string;
  /** The header a signed-in page sends (the per-run secret). */
  auth: Record<string, string>;
  projectDir: string;
  userDir: string;
  close(): Promise<void>;
}

/** The real web bridge over a temp home seeded with the demo notes. */
export async function startSeededBridge(opts: { staticDir?: string } = {}): Promise<BridgeEnv> {
  const root = await tempDir('bridge');
  const home = path.join(root, 'home');
  const projectRoot = path.join(root, 'project');
  const dirs = defaultSeedDirs(home, projectRoot);
  await seedSampleNotes(dirs);
  const staticDir = opts.staticDir ?? path.join(root, 'static');
  if (!opts.staticDir) {
    await fs.mkdir(staticDir, { recursive: true });
    await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>test page</title>');
    await fs.writeFile(path.join(root, 'secret.txt'), 'outside the static dir');
  }
  const bridge = await startWebBridge({ home, projectRoot, port: 0, staticDir });
  return {
    bridge,
    base: `http://127.0.0.1:${bridge.port}`,
    auth: { [BRIDGE_SECRET_HEADER]: bridge.secret },
    projectDir: dirs.projectMemoryDir,
    userDir: dirs.userMemoryDir,
    async close() {
      await bridge.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
