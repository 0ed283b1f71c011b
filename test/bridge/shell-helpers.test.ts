import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pushRecent, loadRecentProjects, saveRecentProjects } from '../../electron/main/recent-projects.js';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  saveWindowState,
} from '../../electron/main/window-state.js';
import { tempDir } from '../support/temp-dir.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

describe('window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('keeps a position on a connected display, drops one on a display that is gone', () => {
    const on = { x: 100, y: 80, width: 1200, height: 800, maximized: false };
    expect(fitToDisplays(on, screen)).toEqual(on);
    expect(fitToDisplays({ ...on, x: 2500 }, screen)).toEqual({ width: 1200, height: 800, maximized: false });
  });
  it('round-trips through its file and falls back on a damaged one', async () => {
    const dir = await tempDir('shell');
    const file = path.join(dir, 'window-state.json');
    await saveWindowState(file, { x: 10, y: 20, width: 900, height: 700, maximized: true });
    expect(loadWindowState(file, screen)).toEqual({ x: 10, y: 20, width: 900, height: 700, maximized: true });
    await fs.writeFile(file, '{"width": "wide"');
    expect(loadWindowState(file, screen)).toEqual(DEFAULT_WINDOW_STATE);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('recent projects', () => {
  it('most recent first, no duplicates, at most ten, persisted', async () => {
    let list: string[] = [];
    for (let i = 0; i < 12; i++) list = pushRecent(list, `/p/${i}`);
    list = pushRecent(list, '/p/5');
    expect(list[0]).toBe('/p/5');
    expect(list).toHaveLength(10);
    expect(new Set(list).size).toBe(10);
    const dir = await tempDir('recent');
    await saveRecentProjects(path.join(dir, 'recent.json'), list);
    expect(loadRecentProjects(path.join(dir, 'recent.json'))).toEqual(list);
    expect(loadRecentProjects(path.join(dir, 'missing.json'))).toEqual([]);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('npm start without the Electron runtime', () => {
  it('says so in one line, points to npm run demo, and fails', async () => {
    // Only meaningful where the runtime is missing (our build machines); elsewhere npm start would launch the app.
    const present = existsSync(path.join(repo, 'node_modules/electron/path.txt'));
    if (present) {
      expect(present).toBe(true);
      return;
    }
    const err = await run(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: repo }).then(
      () => null,
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe(1);
    const lines = err!.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Electron's runtime is not installed");
    expect(lines[0]).toContain('npm run demo');
  });
});
