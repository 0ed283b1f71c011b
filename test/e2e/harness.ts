import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseNote } from '../../shared/note-format.js';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { tempDir } from '../support/temp-dir.js';

/** Shared setup of the browser tests: the real web bridge over a temp home, Debian's Chromium. */

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const RENDERER_DIR = path.join(REPO, 'dist', 'renderer');
export const SCREENSHOT_DIR = path.join(REPO, 'test-results', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Generous: CI has two cores shared with the rest of the suite. */
export const WAIT = 30_000;

/**
 * `npm test` builds the renderer first; a lone `vitest run test/e2e` builds it here if missing. Files
 * run two at a time, so each build goes to its own folder and is renamed into place whole: a second
 * file never sees a half-written dist/renderer, and the loser of the race drops its copy.
 */
export function ensureRendererBuilt(): void {
  if (existsSync(path.join(RENDERER_DIR, 'index.html'))) return;
  rmSync(RENDERER_DIR, { recursive: true, force: true }); // an interrupted build's leftovers
  const own = `${RENDERER_DIR}.building-${process.pid}`;
  execFileSync(
    process.execPath,
    [
      path.join(REPO, 'node_modules/vite/bin/vite.js'),
      'build',
      '-c',
      'vite.renderer.config.ts',
      '--outDir',
      own,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // vitest sets NODE_ENV=test, which vite would build with (React's development build, whose
    // doubled effects send every first request twice): build what `npm run build` builds.
    { cwd: REPO, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  try {
    renameSync(own, RENDERER_DIR);
  } catch (err) {
    // Another file's build got there first (rename onto its non-empty folder fails): use that one.
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) throw err;
    rmSync(own, { recursive: true, force: true });
  }
}

export interface DemoEnv {
  root: string;
  home: string;
  projectRoot: string;
  projectDir: string;
  userDir: string;
  bridge: WebBridge;
  close(): Promise<void>;
}

/** `config`: the home's config.json, written before the bridge (and its core) starts. */
export async function startDemo(opts: { seed?: boolean; config?: object } = {}): Promise<DemoEnv> {
  const root = await tempDir('e2e');
  const home = path.join(root, 'home');
  const projectRoot = path.join(root, 'project');
  const dirs = defaultSeedDirs(home, projectRoot);
  if (opts.seed !== false) await seedSampleNotes(dirs);
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(projectRoot, { recursive: true });
  if (opts.config) await fs.writeFile(path.join(home, 'config.json'), JSON.stringify(opts.config));
  const bridge = await startWebBridge({ home, projectRoot, port: 0, staticDir: RENDERER_DIR });
  await bridge.context.core.registerProject();
  return {
    root,
    home,
    projectRoot,
    projectDir: dirs.projectMemoryDir,
    userDir: dirs.userMemoryDir,
    bridge,
    async close() {
      await bridge.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--headless',
    ],
  });
}

export async function newPage(
  browser: Browser,
  opts: { locale?: string; colorScheme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.colorScheme ?? 'light',
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/**
 * Whether a field's placeholder shows whole: typed in as its value, it must not scroll (the width
 * the field leaves for text, after padding and any datalist arrow, is what a placeholder gets).
 */
export function placeholderFits(page: Page, testId: string): Promise<{ text: string; fits: boolean }> {
  return page.getByTestId(testId).evaluate((el: HTMLInputElement) => {
    el.value = el.placeholder;
    const fits = el.scrollWidth <= el.clientWidth;
    el.value = '';
    return { text: el.placeholder, fits };
  });
}

/** The row of a note in the list. */
export function row(page: Page, id: string) {
  return page.locator(`[role="option"][data-note-id="${id}"]`);
}

/** Opens a note from the list (search cleared) and waits until the editor shows it. */
export async function openNoteIn(page: Page, id: string): Promise<void> {
  await page.getByTestId('search').fill('');
  await row(page, id).scrollIntoViewIfNeeded();
  await row(page, id).locator('.note-row-summary').click();
  await expect.poll(() => page.getByTestId('note-id').textContent(), { timeout: WAIT }).toBe(id);
}

/** A note file on disk, parsed (a malformed file fails the test with its reason). */
export async function readNoteFile(dir: string, id: string) {
  const parsed = parseNote(await fs.readFile(path.join(dir, `${id}.md`), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.note;
}

export interface DemoPage {
  env: DemoEnv;
  browser: Browser;
  page: Page;
}

/**
 * The Memory page tests' common start: the renderer built, a demo over a temp home (`prepare` may
 * add files before the page opens), Chromium on the bridge's URL with the list drawn.
 */
export async function openDemoPage(prepare?: (env: DemoEnv) => Promise<void>): Promise<DemoPage> {
  ensureRendererBuilt();
  const env = await startDemo();
  await prepare?.(env);
  const browser = await launchChromium();
  const page = await newPage(browser);
  await page.goto(env.bridge.url);
  await page.getByTestId('list-count').waitFor();
  return { env, browser, page };
}

export async function closeDemoPage(demo: Partial<DemoPage>): Promise<void> {
  await demo.browser?.close();
  await demo.env?.close();
}

/**
 * One demo page for every test of a file: opened before the first (`onOpen` receives it, to keep
 * what the file uses; `prepare` as in openDemoPage), closed after the last.
 */
export function useDemoPage(
  onOpen: (demo: DemoPage) => void,
  prepare?: (env: DemoEnv) => Promise<void>,
): void {
  let demo: DemoPage | undefined;
  beforeAll(async () => {
    demo = await openDemoPage(prepare);
    onOpen(demo);
  }, 120_000);
  afterAll(() => closeDemoPage(demo ?? {}));
}

/** Words the Chinese UI keeps in Latin letters on purpose: names, keys, formats. */
const ALLOWED = new Set([
  'AI',
  'Memory',
  'Desk',
  'Markdown',
  'Ctrl',
  'Cmd',
  'Alt',
  'Tab',
  'Esc',
  'ID',
  'English',
  'URL',
]);

/** Latin words in text nodes outside user content ([translate="no"]), form values and option lists. */
export function englishWords(page: Page): Promise<string[]> {
  return page.evaluate(
    (allowed) => {
      const out: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('[translate="no"], script, style, datalist, .sr-only[data-ignore]')) continue;
        if (el.closest('[hidden]') || el.offsetParent === null) continue;
        for (const w of n.textContent?.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.includes(w)) out.push(w);
      }
      for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title]')) {
        if (el.closest('[translate="no"]')) continue;
        for (const attr of ['aria-label', 'placeholder', 'title']) {
          // An example address (the sync URL's placeholder) is not prose.
          const v = el.getAttribute(attr)?.replace(/https?:\/\/\S+/g, '');
          for (const w of v?.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.includes(w)) out.push(`${attr}:${w}`);
        }
      }
      return [...new Set(out)];
    },
    [...ALLOWED],
  );
}
