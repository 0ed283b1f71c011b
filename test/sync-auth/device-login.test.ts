import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseCredential, serializeCredential } from '../../electron/sync/auth/oidc-credential.js';
import { newPage, screenshot, WAIT } from '../e2e/harness.js';
import { cli } from '../sync/cli-runner.js';
import { CLI_ENTRY, eventually, spawnNode, type Child } from '../sync-owner/children.js';
import { typeSignIn } from './browser-sign-in.js';
import { PASSWORD, useSignInScene } from './sign-in-scene.js';

/**
 * `memdesk login --device` (RFC 8628) as a real child process against the real sync server with
 * its built-in provider on loopback; the person confirms the printed code in Chromium. Also the
 * code denied in the browser, the code left to expire (the provider's short TTL: nothing here
 * measures time), and an external provider (oidc-provider run as one) in front of another server.
 */
const scene = useSignInScene('device-login');
const server = (dir: string, extra: { deviceCodeTtlSeconds?: number } = {}) =>
  scene.builtIn(dir, ['dora'], extra);

/** A home and project with one note, ready to sync. */
async function place(name: string): Promise<{ g: string[]; project: string; tokenFile: string }> {
  const home = path.join(scene.root, `${name}-home`);
  const project = path.join(scene.root, `${name}-project`);
  await fs.mkdir(project, { recursive: true });
  const g = ['--home', home, '--project', project];
  expect((await cli([...g, 'project', 'init'], project)).code).toBe(0);
  const remembered = await cli(
    [...g, 'remember', '--summary', 'kept', '--type', 'project', '--body', 'x'],
    project,
  );
  expect(remembered.code, remembered.stderr).toBe(0);
  return { g, project, tokenFile: path.join(home, 'credentials', 'sync-token.json') };
}

/** `memdesk login --device` as its own process, and the address and code it printed. */
async function loginDevice(
  g: string[],
  project: string,
  origin: string,
): Promise<{ child: Child; uri: string; complete: string; code: string }> {
  const child = spawnNode(
    CLI_ENTRY,
    [...g, 'login', '--device', '--origin', origin, '--device-name', 'Terminal box'],
    {},
    project,
  );
  const printed = await eventually(
    () =>
      /open (\S+) in a browser on any device and enter the code (\S+)\n.*\n\s+(\S+)\n/.exec(child.stderr()) ??
      (child.child.exitCode !== null ? new Error(child.stderr()) : null),
    'the device code printed',
    1200,
  );
  if (printed instanceof Error) throw printed;
  return { child, uri: printed[1]!, code: printed[2]!, complete: printed[3]! };
}

async function storedCredential(tokenFile: string) {
  const text = await fs.readFile(tokenFile, 'utf8').catch(() => null);
  const tokens = text ? (JSON.parse(text) as { tokens: Record<string, string> }).tokens : {};
  return Object.values(tokens).map((t) => parseCredential(t));
}

describe('memdesk login --device', () => {
  it('prints the address and code; confirmed in the browser, it stores the sign-in and syncs with it', async () => {
    const s = await server('confirm');
    const { g, project, tokenFile } = await place('confirm');
    const { child, uri, code, complete } = await loginDevice(g, project, s.url);
    expect(uri).toBe(`${s.url}/device`);
    expect(complete).toBe(`${s.url}/device?user_code=${code}`);
    expect(code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const page: Page = await newPage(scene.browser);
    await page.goto(uri);
    await page.getByPlaceholder('Enter code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.textContent('body'), { timeout: WAIT }).toContain('Terminal box');
    expect(await page.textContent('code')).toBe(code);
    await screenshot(page, 'device-login-confirm');
    await page.getByRole('button', { name: 'Sign in this device' }).click();
    await typeSignIn(page, 'dora', PASSWORD);
    await expect
      .poll(() => page.textContent('body'), { timeout: WAIT })
      .toContain('The terminal is signed in to Memory Desk sync');

    expect(await child.exited, child.stderr()).toBe(0);
    expect(child.stdout()).toContain(`signed in to ${s.url} as dora`);
    const [credential] = await storedCredential(tokenFile);
    expect(credential).toMatchObject({ kind: 'oidc', issuer: s.url, clientId: 'memory-desk' });

    const sync = JSON.parse((await cli([...g, '--json', 'sync'], project)).stdout);
    expect(sync.scopes.project).toMatchObject({ pushed: 1, error: null });
    const listed = JSON.parse((await cli([...g, '--json', 'devices'], project)).stdout);
    expect(listed.devices).toMatchObject([{ name: 'Terminal box', current: true, revokedAt: null }]);

    // The same refresh path as the browser sign-in: expired here, renewed on the next sync.
    const file = JSON.parse(await fs.readFile(tokenFile, 'utf8')) as { tokens: Record<string, string> };
    const [origin] = Object.keys(file.tokens);
    file.tokens[origin!] = serializeCredential({ ...credential!, expiresAt: 0 });
    await fs.writeFile(tokenFile, JSON.stringify(file));
    await cli([...g, 'remember', '--summary', 'later', '--type', 'project', '--body', 'y'], project);
    const again = JSON.parse((await cli([...g, '--json', 'sync'], project)).stdout);
    expect(again.scopes.project.error).toBeNull();
    const [renewed] = await storedCredential(tokenFile);
    expect(renewed!.refreshToken).not.toBe(credential!.refreshToken);
  }, 240_000);

  it('a code denied in the browser: exit 3, clear words, nothing stored', async () => {
    const s = await server('deny');
    const { g, project, tokenFile } = await place('deny');
    const { child, complete } = await loginDevice(g, project, s.url);
    const page = await newPage(scene.browser);
    await page.goto(complete); // holds the code: straight to the confirmation
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect
      .poll(() => page.textContent('body'), { timeout: WAIT })
      .toContain('This device was not signed in');

    expect(await child.exited, child.stderr()).toBe(3);
    expect(child.stderr()).toMatch(
      /memdesk: the sign-in was denied in the browser; this device is not signed in/,
    );
    expect(await storedCredential(tokenFile)).toEqual([]);
  }, 240_000);

  it('a code nobody confirms expires: exit 4, clear words, and the page says so too', async () => {
    const s = await server('expire', { deviceCodeTtlSeconds: 1 });
    const { g, project, tokenFile } = await place('expire');
    const { child, code, complete } = await loginDevice(g, project, s.url);
    expect(await child.exited, child.stderr()).toBe(4);
    expect(child.stderr()).toContain(
      `memdesk: the code ${code} expired before it was confirmed; run memdesk login --device again for a new one`,
    );
    expect(await storedCredential(tokenFile)).toEqual([]);

    const page = await newPage(scene.browser);
    await page.goto(complete);
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: WAIT })
      .toBe('That code has expired. Run memdesk login --device again for a new one.');
  }, 240_000);

  it('signs in through an external provider (oidc-provider as an IdP) named by another sync server', async () => {
    const idp = await server('idp');
    const external = await scene.external('external', idp.url);
    const { g, project, tokenFile } = await place('external');
    const { child, complete } = await loginDevice(g, project, external.url);
    expect(complete.startsWith(`${idp.url}/device`)).toBe(true);
    const page = await newPage(scene.browser);
    await page.goto(complete);
    await page.getByRole('button', { name: 'Sign in this device' }).click();
    await typeSignIn(page, 'dora', PASSWORD);
    expect(await child.exited, child.stderr()).toBe(0);
    expect(child.stdout()).toContain(`signed in to ${external.url} as dora`);
    expect((await storedCredential(tokenFile))[0]).toMatchObject({ issuer: idp.url });
    const sync = JSON.parse((await cli([...g, '--json', 'sync'], project)).stdout);
    expect(sync.scopes.project).toMatchObject({ pushed: 1, error: null });
  }, 240_000);
});
