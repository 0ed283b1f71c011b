import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createHandlers } from '../../electron/api/handlers.js';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { parseNote } from '../../shared/note-format.js';
import { tempDir } from '../sync/harness.js';
import { newPage, RENDERER_DIR, WAIT } from './harness.js';

/**
 * Devices for the sync tests in Chromium: each a temp home with a clone of one project (same
 * project id, so they share its cloud scope), its own web bridge and a page on it; and the page
 * steps those tests share (sign in, 立即同步, waiting for a call's answer).
 */
export interface Device {
  name: string;
  root: string;
  home: string;
  userDir: string;
  projectRoot: string | null;
  autoStart: boolean;
  bridge: WebBridge;
  page: Page;
}

export async function startDevice(
  browser: Browser,
  projectId: string,
  name: string,
  opts: {
    seed: boolean;
    project: boolean;
    autoStart: boolean;
    /** What the device's sync client sends its requests with (a test may hold some back). */
    fetch?: typeof fetch;
  },
): Promise<Device> {
  const root = await tempDir(`e2e-${name}`);
  const home = path.join(root, 'home');
  const projectRoot = path.join(root, 'project');
  const dirs = defaultSeedDirs(home, projectRoot);
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(path.join(projectRoot, '.oharness'), { recursive: true });
  // Two clones of one project: the same project id, so they share the project's cloud scope.
  await fs.writeFile(path.join(projectRoot, '.oharness', 'project.json'), JSON.stringify({ id: projectId }));
  if (opts.seed) await seedSampleNotes(dirs);
  await fs.mkdir(dirs.userMemoryDir, { recursive: true });
  const bridge = await startWebBridge({
    home,
    ...(opts.project ? { projectRoot } : {}),
    port: 0,
    staticDir: RENDERER_DIR,
    sync: { autoStart: opts.autoStart, ...(opts.fetch ? { fetch: opts.fetch } : {}) },
  });
  if (opts.project) await bridge.context.core.registerProject();
  const page = await newPage(browser);
  await page.goto(bridge.url);
  return {
    name,
    root,
    home,
    userDir: dirs.userMemoryDir,
    projectRoot: opts.project ? projectRoot : null,
    autoStart: opts.autoStart,
    bridge,
    page,
  };
}

/** Quits the device's process (the bridge and its sync) and starts it again over the same home. */
export async function restartDevice(d: Device): Promise<void> {
  await d.bridge.close();
  d.bridge = await startWebBridge({
    home: d.home,
    ...(d.projectRoot ? { projectRoot: d.projectRoot } : {}),
    port: 0,
    staticDir: RENDERER_DIR,
    sync: { autoStart: d.autoStart },
  });
  await d.page.goto(d.bridge.url);
}

/** Closes each started device's bridge and removes its temp folder (a failed start leaves a hole). */
export async function closeDevices(devices: readonly (Device | undefined)[]): Promise<void> {
  for (const d of devices) {
    if (!d) continue;
    await d.bridge.close();
    await fs.rm(d.root, { recursive: true, force: true });
  }
}

/**
 * Waits until the device's core reads `text` in the user note `id`: a file written beside the app
 * is seen through the watcher, which may lag on a loaded machine, and a round before that would
 * sync the old text.
 */
export async function coreReads(d: Device, id: string, text: string): Promise<void> {
  await expect
    .poll(async () => (await createHandlers(d.bridge.context)['notes.get']({ id, scope: 'user' })).body, {
      timeout: WAIT,
    })
    .toContain(text);
}

export async function readBody(dir: string, id: string): Promise<string | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, `${id}.md`), 'utf8');
  } catch {
    return null;
  }
  const parsed = parseNote(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.note.body;
}

export async function openTab(page: Page, tab: string): Promise<void> {
  await page.getByTestId(`tab-${tab}`).click();
}

/** Waits for the answer of the next call of `method` the page makes while `action` runs. */
export async function whileCalling(page: Page, method: string, action: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/invoke') && (r.request().postData() ?? '').includes(`"method":"${method}"`),
    { timeout: WAIT * 2 },
  );
  await action();
  await answered;
}

export async function signIn(d: Device, origin: string, tok: string): Promise<void> {
  await openTab(d.page, 'sync');
  await d.page.getByTestId('sync-origin').fill(origin);
  await d.page.getByTestId('sync-token').fill(tok);
  await d.page.getByTestId('sync-signin').click();
  await d.page.getByTestId('sync-signed-in').waitFor();
}

/** 立即同步 from the sync panel, waiting for the round's answer. */
export async function syncNow(d: Device): Promise<void> {
  await openTab(d.page, 'sync');
  const button = d.page.getByTestId('sync-now');
  await expect.poll(() => button.isEnabled(), { timeout: WAIT }).toBe(true);
  await whileCalling(d.page, 'sync.now', () => button.click());
}
