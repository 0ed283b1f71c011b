import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt, launchChromium, newPage, startDemo, type DemoEnv } from './harness.js';

/**
 * What a developer tools console shows a person who opens the app and visits every tab: nothing.
 * No error, no warning (a CSP directive a <meta> cannot carry logs one), no failed request (the
 * browser asks for /favicon.ico unless the page names an icon).
 */
let browser: Browser;
let env: DemoEnv;

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  env = await startDemo();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('the page in a browser', { timeout: 120_000 }, () => {
  it('loads and shows every tab without a console error, a warning or a failed request', async () => {
    const page = await newPage(browser);
    const said: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') said.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => said.push(`page error: ${err.message}`));
    page.on('requestfailed', (r) => {
      // A query the page no longer needs is cancelled on purpose when its tab closes.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') said.push(`request failed: ${r.url()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) said.push(`${r.status()}: ${new URL(r.url()).pathname}`);
    });
    await page.goto(env.bridge.url);
    await page.getByTestId('list-count').waitFor();
    const tabs = await page
      .locator('[role="tab"][data-testid^="tab-"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!));
    expect(tabs.length).toBeGreaterThanOrEqual(6);
    for (const tab of tabs) {
      await page.getByTestId(tab).click();
      await expect.poll(() => page.getByTestId(tab).getAttribute('aria-selected')).toBe('true');
    }
    // Each tab's first requests answered (the status bar polls the same way on every tab).
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('list-count').waitFor();
    expect(said).toEqual([]);
  });
});
