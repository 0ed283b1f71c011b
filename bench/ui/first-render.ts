/**
 * bench/ui: how fast the Memory page shows its list with 10,000 notes (5,000 per scope, the
 * per-scope limit), and how many list rows are in the DOM, against the 17-note demo sample measured
 * in the same run. Real web bridge, real core, Debian's Chromium (headless).
 *
 *   npx tsx bench/ui/first-render.ts [--runs 3] [--write docs/performance.md]
 *
 * Targets (issue 3): first rendered list ≤ 1 s after navigation; ≤ 100 rows in the DOM.
 */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import {
  defaultSeedDirs,
  generatedNotes,
  seedGeneratedNotes,
  seedSampleNotes,
} from '../../electron/demo/seed.js';
import { startWebBridge } from '../../electron/transports/http/web-bridge.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, write: { type: 'string' } },
});
const RUNS = Number(values.runs);
const repo = path.resolve(import.meta.dirname, '../..');
const staticDir = path.join(repo, 'dist', 'renderer');
if (!existsSync(path.join(staticDir, 'index.html'))) {
  console.error('Build the renderer first: npm run build:renderer');
  process.exit(1);
}

interface Measure {
  firstListMs: number;
  rowsInDom: number;
  scrollFrameMs: number;
  rowsAfterScroll: number;
}

async function measure(browser: Browser, url: string): Promise<Measure> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  // Trade the secret for the cookie first, so the timed navigation is the page itself.
  await page.goto(url);
  const pageUrl = page.url();
  // performance.now() counts from the navigation's start; the observer notes when the first row appears.
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRow?: number };
    new MutationObserver((_m, obs) => {
      if (document.querySelector('[role="option"]')) {
        w.__firstRow = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(pageUrl);
  await page.waitForFunction(() => (window as unknown as { __firstRow?: number }).__firstRow !== undefined);
  const firstListMs = await page.evaluate(() => (window as unknown as { __firstRow: number }).__firstRow);
  const rowsInDom = await page.locator('[role="option"]').count();
  // Scroll the list in 40 steps of one screen; time each step to the next painted frame.
  const scrollFrameMs = await page.evaluate(async () => {
    const list = document.querySelector<HTMLElement>('[role="listbox"]')!;
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      list.scrollTop += list.clientHeight;
      await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  });
  const rowsAfterScroll = await page.locator('[role="option"]').count();
  await context.close();
  return { firstListMs, rowsInDom, scrollFrameMs, rowsAfterScroll };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function dataset(
  browser: Browser,
  label: string,
  seed: (home: string, project: string) => Promise<void>,
) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-ui-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const t0 = performance.now();
  await seed(home, project);
  const seedMs = performance.now() - t0;
  const bridge = await startWebBridge({ home, projectRoot: project, port: 0, staticDir, watch: false });
  const status =
    ((await bridge.context.core.store('project')?.list().length) ?? 0) +
    (bridge.context.core.store('user')?.list().length ?? 0);
  // The API part of the first render: notes.list over HTTP, measured from Node.
  const listTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${bridge.port}/api/invoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: `memdesk_secret=${bridge.secret}` },
      body: JSON.stringify({ method: 'notes.list', input: { scope: 'both' } }),
    });
    await res.text();
    listTimes.push(performance.now() - t);
  }
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, bridge.url));
  await bridge.close();
  await fs.rm(root, { recursive: true, force: true });
  const m = {
    label,
    notes: status,
    seedMs,
    firstListMs: median(runs.map((r) => r.firstListMs)),
    rowsInDom: Math.max(...runs.map((r) => r.rowsInDom)),
    rowsAfterScroll: Math.max(...runs.map((r) => r.rowsAfterScroll)),
    scrollFrameMs: median(runs.map((r) => r.scrollFrameMs)),
    listApiMs: median(listTimes),
  };
  console.log(
    `${label}: ${m.notes} notes loaded; first list ${m.firstListMs.toFixed(0)} ms (median of ${RUNS}); rows in DOM ${m.rowsInDom} (after scrolling ${m.rowsAfterScroll}); scroll step to paint ${m.scrollFrameMs.toFixed(1)} ms; notes.list over HTTP ${m.listApiMs.toFixed(0)} ms`,
  );
  return m;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--headless',
  ],
});
try {
  const base = await dataset(browser, 'baseline (demo sample)', (home, project) =>
    seedSampleNotes(defaultSeedDirs(home, project)).then(() => undefined),
  );
  // A list that scrolls but is small: shows whether a scroll step's cost grows with the note count.
  const mid = await dataset(browser, '500 notes', async (home, project) => {
    const dirs = defaultSeedDirs(home, project);
    await seedGeneratedNotes(dirs.projectMemoryDir, generatedNotes(250, 'project'));
    await seedGeneratedNotes(dirs.userMemoryDir, generatedNotes(250, 'user'));
  });
  const big = await dataset(browser, '10,000 notes', async (home, project) => {
    const dirs = defaultSeedDirs(home, project);
    await seedGeneratedNotes(dirs.projectMemoryDir, generatedNotes(5000, 'project'));
    await seedGeneratedNotes(dirs.userMemoryDir, generatedNotes(5000, 'user'));
  });
  const ratio = big.firstListMs / base.firstListMs;
  const verdict = `first list ${big.firstListMs <= 1000 ? '≤' : '>'} 1 s, rows ${big.rowsInDom <= 100 && big.rowsAfterScroll <= 100 ? '≤' : '>'} 100`;
  console.log(
    `ratio 10,000 / baseline first-list time: ${ratio.toFixed(2)}×; scroll step 10,000 / 500: ${(big.scrollFrameMs / mid.scrollFrameMs).toFixed(2)}×  — targets: ${verdict}`,
  );
  if (values.write) {
    const line = `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'} | ${base.firstListMs.toFixed(0)} ms | ${big.firstListMs.toFixed(0)} ms | ${ratio.toFixed(2)}× | ${big.rowsInDom} / ${big.rowsAfterScroll} | ${mid.scrollFrameMs.toFixed(1)} / ${big.scrollFrameMs.toFixed(1)} ms | ${big.listApiMs.toFixed(0)} ms | ${os.loadavg()[0]!.toFixed(1)} |\n`;
    await fs.appendFile(path.resolve(repo, values.write), line);
    console.log(`appended to ${values.write}`);
  }
} finally {
  await browser.close();
}
