import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { embeddingsSettingsPath, readEmbeddingsSettings } from '../../electron/memory/semantic/settings.js';
import { startStandInEmbeddings, type StandInServer } from '../semantic/stand-in-embeddings.js';
import { memdeskChild as memdesk } from '../support/memdesk-cli.js';
import { closeDemoPage, newPage, openDemoPage, row, screenshot, WAIT, type DemoEnv } from './harness.js';

/**
 * Issue 20, semantic recall settings in the app, in Chromium against the real web bridge, with a
 * local stand-in embeddings server (deterministic vectors; it maps "automobile servicing" and "car
 * maintenance" to the same vector, as a real model would make them close): turned on and tested
 * from the panel, saved; a search by a separate CLI process embeds the notes and the open panel
 * counts them by itself; a search on the Memory page finds the paraphrase; a wrong URL shows its
 * error and leaves the saved settings as they were.
 */
let env: DemoEnv;
let browser: Browser;
let page: Page;
let standIn: StandInServer;
const CAR = 'car-maintenance-plan';

beforeAll(async () => {
  standIn = await startStandInEmbeddings();
  ({ env, browser, page } = await openDemoPage(async (demo) => {
    const at = Date.UTC(2025, 0, 1);
    await fs.writeFile(
      path.join(demo.projectDir, `${CAR}.md`),
      serializeNote({
        id: CAR,
        summary: 'Car maintenance plan',
        tags: ['car'],
        createdAt: at,
        updatedAt: at,
        body: 'Change the oil every 10,000 km.\n',
      }),
    );
  }));
}, 120_000);

afterAll(async () => {
  await closeDemoPage({ env, browser });
  await standIn?.close();
});

async function openPanel(): Promise<void> {
  await page.getByTestId('tab-agents').click();
  await page.getByTestId('semantic-panel').scrollIntoViewIfNeeded();
}

describe('semantic recall settings (stand-in embeddings server)', { timeout: 120_000 }, () => {
  it('words alone do not find the paraphrase before semantic recall is on', async () => {
    await page.getByTestId('search').fill('automobile servicing');
    await page.locator('[data-shown-query="automobile servicing"]').waitFor();
    await expect(row(page, CAR).count()).resolves.toBe(0);
    await page.getByTestId('search').fill('');
  });

  it('turns on with the stand-in URL, tests the connection, saves', async () => {
    await openPanel();
    const url = page.getByLabel('Embeddings endpoint URL');
    await expect
      .poll(() => page.getByTestId('semantic-status').textContent())
      .toContain('Semantic recall is off.');
    // Keyboard: the switch is a labelled checkbox toggled with Space; Tab goes on to the URL field.
    await page.getByLabel('Use semantic recall').focus();
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Use semantic recall').isChecked()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(url.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    // Turned on without a URL: the field says what is missing, nothing is saved.
    await page.getByTestId('semantic-save').click();
    await page.getByTestId('semantic-url-error').waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect((await readEmbeddingsSettings(env.home)).enabled).toBe(false);

    await url.fill(standIn.baseUrl);
    await page.getByLabel('Model').fill('stand-in');
    await page.getByTestId('semantic-test').click();
    await expect
      .poll(() => page.getByTestId('semantic-test-ok').textContent(), { timeout: WAIT })
      .toBe('Connected: the endpoint answered a vector of 64 numbers.');
    // Testing does not save.
    expect((await readEmbeddingsSettings(env.home)).enabled).toBe(false);

    await page.getByTestId('semantic-save').click();
    await page.getByTestId('semantic-saved').waitFor();
    expect(await readEmbeddingsSettings(env.home)).toMatchObject({
      enabled: true,
      baseUrl: standIn.baseUrl,
      model: 'stand-in',
    });
    await expect
      .poll(() => page.getByTestId('semantic-embedded').textContent())
      .toMatch(/^0 of \d+ notes embedded/);
  });

  it('the panel counts the notes another process embeds, without being refreshed', async () => {
    // The panel stays open, showing "0 of N"; a search by a separate `memdesk` process (as an
    // agent's hook or MCP server would run) embeds the notes, and the app gets no event for it.
    await expect(page.getByTestId('semantic-embedded').textContent()).resolves.toMatch(/^0 of \d+ notes/);
    const search = await memdesk(
      ['--home', env.home, '--project', env.projectRoot, '--json', 'search', 'automobile servicing'],
      { cwd: env.root },
    );
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { notes: { id: string }[] }).notes.map((n) => n.id)).toContain(CAR);
    await expect
      .poll(
        async () => {
          const m = /^(\d+) of (\d+) notes embedded/.exec(
            (await page.getByTestId('semantic-embedded').textContent()) ?? '',
          );
          return m ? Number(m[1]) > 0 && m[1] === m[2] : false;
        },
        { timeout: WAIT },
      )
      .toBe(true);
    await page
      .getByTestId('semantic-status')
      .getByText(/^Last updated /)
      .waitFor();
    await screenshot(page, 'semantic-settings');
  });

  it('a search through the page then finds the paraphrase', async () => {
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('search').fill('automobile servicing');
    await page.locator('[data-shown-query="automobile servicing"]').waitFor();
    await row(page, CAR).waitFor({ timeout: WAIT });
    await page.getByTestId('search').fill('');
    await openPanel();
  });

  it('a wrong URL shows the error and leaves the saved settings unchanged', async () => {
    const saved = { enabled: true, baseUrl: standIn.baseUrl, model: 'stand-in' };
    const gone = await startStandInEmbeddings();
    await gone.close();
    const url = page.getByLabel('Embeddings endpoint URL');
    await url.fill(gone.baseUrl);
    await page.getByTestId('semantic-test').click();
    await expect
      .poll(() => page.getByTestId('semantic-test-error').textContent(), { timeout: WAIT })
      .toContain('Cannot reach the endpoint: is the server running at this URL?');

    // Editing the URL clears what was said about the last one.
    await url.fill('http://192.0.2.1:11434/v1');
    expect(await page.getByTestId('semantic-test-error').count()).toBe(0);
    // Plain http:// to another machine is refused next to the field; nothing is saved.
    await page.getByTestId('semantic-save').click();
    await expect
      .poll(() => page.getByTestId('semantic-url-error').textContent(), { timeout: WAIT })
      .toMatch(/use https:\/\//);
    expect(await readEmbeddingsSettings(env.home)).toMatchObject(saved);

    // A save the core refuses (here: its settings file broken by hand) shows why and keeps what was typed.
    const file = embeddingsSettingsPath(env.home);
    const before = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, '{ broken');
    try {
      await url.fill(`${standIn.baseUrl}/`);
      await page.getByTestId('semantic-save').click();
      await expect
        .poll(() => page.getByTestId('semantic-save-error').textContent(), { timeout: WAIT })
        .toMatch(/^Not saved: .*is not JSON; fix or remove it\. Your entries are kept\.$/);
      expect(await url.inputValue()).toBe(`${standIn.baseUrl}/`);
      expect(await page.getByLabel('Model').inputValue()).toBe('stand-in');
      await page.getByTestId('semantic-save-error').scrollIntoViewIfNeeded();
      await screenshot(page, 'semantic-settings-error');
      expect(await fs.readFile(file, 'utf8')).toBe('{ broken');
    } finally {
      await fs.writeFile(file, before);
    }
    expect(await readEmbeddingsSettings(env.home)).toMatchObject(saved);

    // After a reload the panel shows what is saved.
    await page.reload();
    await page.getByTestId('list-count').waitFor();
    await openPanel();
    await expect.poll(() => page.getByLabel('Embeddings endpoint URL').inputValue()).toBe(standIn.baseUrl);
  });

  it("sets meaning's share for the saved model; naming another model shows it goes back to the default", async () => {
    const share = page.getByLabel('Share of meaning in a score');
    await expect(share.getAttribute('placeholder')).resolves.toBe('default 0.05');
    // Not a number from 0 to 1: said next to the field, nothing saved.
    await share.fill('1.5');
    await page.getByTestId('semantic-save').click();
    await expect
      .poll(() => page.getByTestId('semantic-weight-error').textContent())
      .toBe('Give a number from 0 to 1, or leave it empty for the default.');
    expect((await readEmbeddingsSettings(env.home)).weight).toBeUndefined();

    await share.fill('0.3');
    await page.getByTestId('semantic-save').click();
    await page.getByTestId('semantic-saved').waitFor();
    expect(await readEmbeddingsSettings(env.home)).toMatchObject({ model: 'stand-in', weight: 0.3 });

    // Another model typed: the field empties and says why before anything is saved.
    await page.getByLabel('Model').fill('other-model');
    await expect.poll(() => share.inputValue()).toBe('');
    await expect
      .poll(() => page.getByTestId('semantic-weight-hint').textContent())
      .toBe('Back to the default: the share was set for the model saved before.');
    await page.getByTestId('semantic-weight-hint').scrollIntoViewIfNeeded();
    await screenshot(page, 'semantic-settings-share-reset');
    // Back to the saved model: the saved share shows again; saving keeps it.
    await page.getByLabel('Model').fill('stand-in');
    await expect.poll(() => share.inputValue()).toBe('0.3');
    await page.getByTestId('semantic-save').click();
    await page.getByTestId('semantic-saved').waitFor();
    expect((await readEmbeddingsSettings(env.home)).weight).toBe(0.3);
    // Emptied by hand: the default again.
    await share.fill('');
    await page.getByTestId('semantic-save').click();
    await page.getByTestId('semantic-saved').waitFor();
    expect((await readEmbeddingsSettings(env.home)).weight).toBeUndefined();
  });

  it('speaks Chinese like the rest of the page', async () => {
    const zh = await newPage(browser, { locale: 'zh-CN' });
    try {
      await zh.goto(env.bridge.url);
      await zh.getByTestId('tab-agents').click();
      await zh.getByRole('region', { name: '语义召回' }).scrollIntoViewIfNeeded();
      expect(await zh.getByLabel('嵌入服务地址').inputValue()).toBe(standIn.baseUrl);
      await expect
        .poll(() => zh.getByTestId('semantic-embedded').textContent())
        .toMatch(/^已嵌入 \d+ \/ \d+ 条笔记/);
      await zh.getByLabel('模型').fill('');
      await zh.getByRole('button', { name: '测试连接' }).click();
      await expect.poll(() => zh.getByTestId('semantic-model-error').textContent()).toBe('请填写模型名称。');
      await screenshot(zh, 'semantic-settings-zh');
    } finally {
      await zh.context().close();
    }
  });
});
