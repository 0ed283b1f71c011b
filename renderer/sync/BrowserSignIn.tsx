import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../state/toast-store.js';
import { useSyncMutation } from './hooks.js';
import { OriginField } from './OriginField.js';
import { SignInForm } from './SignInForm.js';

/**
 * Sign in with the sync server's own sign-in page, in the system browser (main opens it; the page
 * never shows a password field). Pasting a token stays under "advanced".
 */
export function BrowserSignIn() {
  const { t } = useTranslation();
  const signIn = useSyncMutation('account.signIn');
  const [origin, setOrigin] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate(
      { origin: origin.trim() },
      {
        onSuccess: (r) =>
          showToast({
            tone: 'info',
            message: { key: 'syncUi.signedInToast', params: { origin: r.origin, user: r.userId ?? '' } },
          }),
      },
    );
  };
  return (
    <>
      <form className="sync-signin" aria-label={t('syncUi.signInBrowser')} onSubmit={submit}>
        <OriginField value={origin} onChange={setOrigin} testId="sync-oidc-origin" />
        <button type="submit" className="primary" disabled={signIn.isPending} data-testid="sync-oidc-signin">
          {t('syncUi.signInBrowser')}
        </button>
        {signIn.isPending ? (
          <p className="muted" role="status">
            {t('syncUi.signInBrowserPending')}
          </p>
        ) : null}
        {signIn.error ? (
          <p className="error" role="alert" data-testid="sync-oidc-error">
            {signIn.error.message}
          </p>
        ) : null}
      </form>
      <div className="sync-advanced">
        <h4>{t('syncUi.signInAdvanced')}</h4>
        <SignInForm />
      </div>
    </>
  );
}
