import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../shared/api.js';
import { PATH_TAKING_METHODS } from '../../electron/transports/page-methods.js';
import {
  ensureRendererBuilt,
  launchChromium,
  newPage,
  startDemo,
  WAIT,
  type DemoEnv,
} from '../e2e/harness.js';

/**
 * The web bridge's login belongs to one bridge: the secret lives in the URL fragment and the tab's
 * sessionStorage and travels as a header, so no other service on 127.0.0.1 ever receives it.
 */
let a: DemoEnv;
let b: DemoEnv;
let browser: Browser;
let spy: http.Server;
const seenBySpy: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  ensureRendererBuilt();
  a = await startDemo();
  b = await startDemo();
  browser = await launchChromium();
  // Another local service the person's browser visits (a dev server, a hostile tool…): it records what it is sent.
  spy = http.createServer((req, res) => {
    seenBySpy.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>other service</title>');
  });
  await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', () => resolve()));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await b?.close();
  await new Promise<void>((resolve) => spy?.close(() => resolve()));
});

function invoke(
  port: number,
  headers: http.OutgoingHttpHeaders,
  body: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/invoke',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('web bridge login', { timeout: 120_000 }, () => {
  it('another port sees no secret; replaying what it saw fails; a second bridge does not log the first out', async () => {
    const page = await newPage(browser);
    await page.goto(a.bridge.url);
    await expect
      .poll(() => page.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toMatch(/\d+ notes/);
    // The secret left the address bar and no cookie holds it.
    expect(page.url()).not.toContain(a.bridge.secret);
    expect(await page.context().cookies()).toEqual([]);

    const other = await page.context().newPage();
    await other.goto(`http://127.0.0.1:${(spy.address() as AddressInfo).port}/`);
    const seen = seenBySpy.at(-1)!;
    expect(JSON.stringify(seen)).not.toContain(a.bridge.secret);
    // Replaying everything the other service received gets nothing from the bridge.
    const { host: _h, ...replayed } = seen;
    expect(
      (await invoke(a.bridge.port, replayed, { method: 'notes.list', input: { scope: 'both' } })).status,
    ).toBe(401);

    // A second bridge opened in the same browser keeps its own secret; the first still works.
    const second = await page.context().newPage();
    await second.goto(b.bridge.url);
    await expect
      .poll(() => second.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toMatch(/\d+ notes/);
    await page.reload();
    await expect
      .poll(() => page.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toMatch(/\d+ notes/);
    // sessionStorage is per origin: the page on B's port holds B's secret, never A's.
    expect(await second.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(a.bridge.secret);
    await page.context().close();
  });

  it('a malformed Cookie header is ignored, not a 500', async () => {
    const res = await invoke(
      a.bridge.port,
      { 'x-memdesk-secret': a.bridge.secret, Cookie: 'x=%; y=%E0%A4%A' },
      { method: 'notes.list', input: { scope: 'both' } },
    );
    expect(res.status).toBe(200);
  });
});

describe('methods a page may call', () => {
  it('the bridge refuses every path-taking method; agents.export writes nothing', async () => {
    const out = path.join(a.root, 'stolen.zip');
    const res = await invoke(
      a.bridge.port,
      { 'x-memdesk-secret': a.bridge.secret },
      { method: 'agents.export', input: { scope: 'user', out } },
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toMatch(/takes a file path/);
    expect(await fs.stat(out).catch(() => null)).toBeNull();
    for (const method of PATH_TAKING_METHODS) {
      const r = await invoke(a.bridge.port, { 'x-memdesk-secret': a.bridge.secret }, { method, input: {} });
      expect([400, 403]).toContain(r.status);
    }
  });

  it('every method whose input names a file is in the page-refused list', () => {
    const pathLike = /^(?:path|file|out|dir|root|dest|target)$/;
    const takesPath = Object.entries(api)
      .filter(([, def]) => {
        const shape = (def.input as { shape?: Record<string, unknown> }).shape ?? {};
        return Object.keys(shape).some((k) => pathLike.test(k));
      })
      .map(([name]) => name)
      .sort();
    expect(takesPath).toEqual([...PATH_TAKING_METHODS].sort());
  });
});
