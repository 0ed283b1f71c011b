import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RequiredField } from '../components/RequiredField.js';
import { showToast } from '../state/toast-store.js';
import { useSyncMutation } from './hooks.js';
import { OriginField } from './OriginField.js';

/** Sign in with the sync server's URL and an access token; the server's identity answer verifies it. */
export function SignInForm() {
  const { t } = useTranslation();
  const login = useSyncMutation('sync.login');
  const [origin, setOrigin] = useState('');
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate(
      { origin: origin.trim(), token: token.trim() },
      {
        onSuccess: (r) => {
          setToken('');
          showToast({
            tone: 'info',
            message: r.userId
              ? { key: 'syncUi.signedInToast', params: { origin: r.origin, user: r.userId } }
              : { key: 'syncUi.signedInUnverified', params: { origin: r.origin } },
          });
        },
      },
    );
  };
  return (
    <form className="sync-signin" aria-label={t('syncUi.signIn')} onSubmit={submit}>
      <OriginField value={origin} onChange={setOrigin} testId="sync-origin" />
      <RequiredField
        label={t('syncUi.token')}
        type="password"
        autoComplete="off"
        value={token}
        onChange={setToken}
        testId="sync-token"
      />
      <button type="submit" className="primary" disabled={login.isPending} data-testid="sync-signin">
        {login.isPending ? t('syncUi.signingIn') : t('syncUi.signIn')}
      </button>
      {login.error ? (
        <p className="error" role="alert" data-testid="sync-signin-error">
          {login.error.message}
        </p>
      ) : null}
    </form>
  );
}
