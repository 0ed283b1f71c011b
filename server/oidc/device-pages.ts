import { DeviceNameSchema } from '../../shared/sync-auth.js';
import { escapeHtml } from '../../shared/escape-html.js';
import { PAGE_HEADERS, page } from './login-page.js';

/**
 * The pages of the device authorization grant (RFC 8628, `memdesk login --device`) in the person's
 * browser, in place of oidc-provider's defaults (which load fonts from elsewhere and set no
 * framing or script policy): enter the code the terminal shows, confirm or deny it, done. The
 * forms themselves (with their anti-forgery field) are oidc-provider's; the account's sign-in in
 * between is the provider's login page (login-page.ts).
 */
export interface DevicePageContext {
  type: string;
  body: string;
  set(headers: Record<string, string>): void;
  oidc: { entities: { DeviceCode?: { params?: Record<string, unknown> } } };
}

/** oidc-provider's re-render errors on the code pages, by name, in words a person can act on. */
const CODE_PROBLEMS: Record<string, string> = {
  NoCodeError: 'Type the code your terminal shows.',
  NotFoundError: 'That code is not known here. Check it against the one your terminal shows.',
  ExpiredError: 'That code has expired. Run memdesk login --device again for a new one.',
  AlreadyUsedError: 'That code was already used. Run memdesk login --device again for a new one.',
};

function send(ctx: DevicePageContext, title: string, inner: string): void {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = page(title, inner);
}

export function userCodeInputPage(
  ctx: DevicePageContext,
  form: string,
  out?: { error?: string; error_description?: string },
  err?: Error,
): void {
  if (err?.name === 'AbortedError')
    return send(
      ctx,
      'Sign-in denied',
      '<p role="status">This device was not signed in: its terminal is told so. You can close this tab.</p>',
    );
  const problem = err
    ? (CODE_PROBLEMS[err.name] ?? `Sign-in failed: ${out?.error_description ?? out?.error ?? err.message}`)
    : null;
  send(
    ctx,
    'Sign in a device to Memory Desk sync',
    `<p>Enter the code your terminal shows after <code>memdesk login --device</code>.</p>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
${form}
<button type="submit" form="op.deviceInputForm">Continue</button>`,
  );
}

export function userCodeConfirmPage(ctx: DevicePageContext, form: string, userCode: string): void {
  const name = DeviceNameSchema.safeParse(ctx.oidc.entities.DeviceCode?.params?.device_name);
  send(
    ctx,
    'Sign in this device?',
    `<p>A terminal asks to sync as you${name.success ? `: <strong>${escapeHtml(name.data)}</strong>` : ''}.</p>
<p>It should show this code: <code>${escapeHtml(userCode)}</code></p>
<p>If you did not start this, or the code differs, deny it.</p>
${form}
<button type="submit" form="op.deviceConfirmForm">Sign in this device</button>
<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Deny</button>`,
  );
}

export function deviceSignedInPage(ctx: DevicePageContext): void {
  send(
    ctx,
    'Device signed in',
    '<p role="status">The terminal is signed in to Memory Desk sync. You can close this tab.</p>',
  );
}
