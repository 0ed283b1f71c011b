/**
 * bench/ui: the Memory page's first list at 10,000 notes (5,000 per scope, the per-scope limit)
 * against the 17-note demo sample, in one run. Real web bridge and core, Debian's headless Chromium.
 *
 *   npm run build:renderer && npx tsx bench/ui/first-render.ts [--runs 3] [--write docs/performance.md]
 *
 * Per data set, medians of --runs:
 *  - Chromium: navigation start → first list row (MutationObserver), rows in the DOM, the page's
 *    main-thread CPU (CDP TaskDuration) and JS heap after a GC, with the paged list (one page of 100);
 *  - then, in the same page, what the whole list cost before paging: fetching and parsing the full
 *    `notes.list` (wall time, heap it holds after a GC);
 *  - over HTTP from Node: `notes.list` first page vs the full list — wall, the bridge's CPU, bytes.
 * Target (issue 17): first list at 10,000 ≤ 2× the 17-note sample.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import {
  generatedSeed,
  launch,
  machine,
  median,
  repo,
  requireRenderer,
  sampleSeed,
  startBench,
  type Seed,
} from './setup.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, write: { type: 'string' } },
});
const RUNS = Number(values.runs);
const PAGE_INPUT = { scope: 'both', limit: 100, sort: 'updated', type: 'all', tag: '' };
requireRenderer();

interface PageMeasure {
  firstRowMs: number;
  rowsInDom: number;
  cpuMs: number;
  heapMb: number;
  fullListMs: number;
  fullListHeapMb: number;
}

async function measurePage(browser: Browser, url: string): Promise<PageMeasure> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  // The secret goes from the URL's fragment into sessionStorage first: the timed load is the page itself.
  await page.goto(url);
  await page.locator('[role="option"]').first().waitFor();
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRow?: number };
    new MutationObserver((_m, obs) => {
      if (document.querySelector('[role="option"]')) {
        w.__firstRow = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async (name: string) =>
    (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === name)?.value ?? 0;
  const heapMb = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await metric('JSHeapUsedSize')) / 2 ** 20;
  };
  // TaskDuration is the renderer main thread's busy time, cumulative: the reload's share is the difference.
  const taskBefore = await metric('TaskDuration');
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __firstRow?: number }).__firstRow !== undefined);
  const cpuMs = ((await metric('TaskDuration')) - taskBefore) * 1000;
  const heapAtFirstRow = await heapMb();
  const firstRowMs = await page.evaluate(() => (window as unknown as { __firstRow: number }).__firstRow);
  const rowsInDom = await page.locator('[role="option"]').count();
  // What the page held and spent before paging: the whole list fetched and parsed, kept alive.
  const fullListMs = await page.evaluate(async () => {
    const secret = sessionStorage.getItem('memdesk-bridge-secret') ?? '';
    const t0 = performance.now();
    const res = await fetch('/api/invoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-memdesk-secret': secret },
      body: JSON.stringify({ method: 'notes.list', input: { scope: 'both' } }),
    });
    (window as unknown as { __full: unknown }).__full = await res.json();
    return performance.now() - t0;
  });
  const fullListHeapMb = (await heapMb()) - heapAtFirstRow;
  await context.close();
  return { firstRowMs, rowsInDom, cpuMs, heapMb: heapAtFirstRow, fullListMs, fullListHeapMb };
}

async function dataset(browser: Browser, label: string, seed: Seed) {
  const b = await startBench(seed);
  const api = {
    page: [] as number[],
    pageCpu: [] as number[],
    full: [] as number[],
    fullCpu: [] as number[],
  };
  let pageBytes = 0;
  let fullBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const p = await b.invoke('notes.list', PAGE_INPUT);
    const f = await b.invoke('notes.list', { scope: 'both' });
    api.page.push(p.ms);
    api.pageCpu.push(p.cpuMs);
    api.full.push(f.ms);
    api.fullCpu.push(f.cpuMs);
    pageBytes = p.bytes;
    fullBytes = f.bytes;
  }
  // One page load not counted: the first load of the bundle (compile, disk cache) is not the list's cost.
  await measurePage(browser, b.bridge.url);
  const runs: PageMeasure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measurePage(browser, b.bridge.url));
  await b.close();
  const m = (k: keyof PageMeasure) => median(runs.map((r) => r[k]));
  const out = {
    label,
    notes: b.notes,
    firstRowMs: m('firstRowMs'),
    rowsInDom: Math.max(...runs.map((r) => r.rowsInDom)),
    cpuMs: m('cpuMs'),
    heapMb: m('heapMb'),
    fullListMs: m('fullListMs'),
    fullListHeapMb: m('fullListHeapMb'),
    apiPageMs: median(api.page),
    apiPageCpuMs: median(api.pageCpu),
    apiFullMs: median(api.full),
    apiFullCpuMs: median(api.fullCpu),
    pageKb: pageBytes / 1024,
    fullKb: fullBytes / 1024,
  };
  console.log(
    `${label} (${out.notes} notes): first row ${out.firstRowMs.toFixed(0)} ms, page CPU ${out.cpuMs.toFixed(0)} ms, JS heap ${out.heapMb.toFixed(1)} MB, ${out.rowsInDom} rows in the DOM | ` +
      `the full list in the page: ${out.fullListMs.toFixed(0)} ms, +${out.fullListHeapMb.toFixed(1)} MB heap | ` +
      `notes.list over HTTP: page ${out.apiPageMs.toFixed(1)} ms (bridge CPU ${out.apiPageCpuMs.toFixed(1)} ms, ${out.pageKb.toFixed(0)} KB) vs full ${out.apiFullMs.toFixed(1)} ms (CPU ${out.apiFullCpuMs.toFixed(1)} ms, ${out.fullKb.toFixed(0)} KB)`,
  );
  return out;
}

const browser = await launch();
try {
  const base = await dataset(browser, 'baseline: demo sample', sampleSeed);
  const big = await dataset(browser, '10,000 notes', generatedSeed(5000));
  const ratio = big.firstRowMs / base.firstRowMs;
  console.log(
    `first row 10,000 / sample: ${ratio.toFixed(2)}× (target ≤ 2×); at 10,000 one page vs the full list over HTTP: ${(big.apiPageMs / big.apiFullMs).toFixed(3)}× wall, ${(big.apiPageCpuMs / big.apiFullCpuMs).toFixed(3)}× bridge CPU, ${(big.pageKb / big.fullKb).toFixed(3)}× bytes — ${machine()}`,
  );
  if (values.write) {
    const line = `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${base.firstRowMs.toFixed(0)} ms | ${big.firstRowMs.toFixed(0)} ms (CPU ${big.cpuMs.toFixed(0)} ms) | ${ratio.toFixed(2)}× | ${big.heapMb.toFixed(1)} MB | ${big.fullListMs.toFixed(0)} ms, +${big.fullListHeapMb.toFixed(1)} MB | ${big.apiPageMs.toFixed(0)} / ${big.apiFullMs.toFixed(0)} ms (CPU ${big.apiPageCpuMs.toFixed(0)} / ${big.apiFullCpuMs.toFixed(0)} ms) | ${big.pageKb.toFixed(0)} / ${big.fullKb.toFixed(0)} KB | ${big.rowsInDom} | ${machine()} |\n`;
    await fs.appendFile(path.resolve(repo, values.write), line);
    console.log(`appended to ${values.write}`);
  }
} finally {
  await browser.close();
}
