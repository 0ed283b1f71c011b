import type { Browser, Page } from 'playwright-core';
import { newPage } from '../e2e/harness.js';

/**
 * The person at the browser, on the built-in provider's sign-in page (server/oidc/login-page.ts):
 * types the account name and password and submits. The sign-in tests share it.
 */
export async function typeSignIn(page: Page, name: string, password: string): Promise<void> {
  await page.getByLabel('Account name').fill(name);
  await page.getByLabel('Password').fill(password);
  // What answers next (the app's callback page) may wait for the app: do not wait for it here.
  await page.getByRole('button', { name: 'Sign in' }).click({ noWaitAfter: true });
}

/** Opens the sign-in address in a new page and signs in there; `seen.page` is that page. */
export function signInAt(browser: Browser, name: string, password: string, seen: { page?: Page } = {}) {
  return async (url: string): Promise<void> => {
    const page = await newPage(browser);
    seen.page = page;
    await page.goto(url);
    await typeSignIn(page, name, password);
  };
}
