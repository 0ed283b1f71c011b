import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/queries.js';
import { showToast } from '../state/toast-store.js';
import { useSyncMutation } from './hooks.js';

function when(t: number): string {
  return new Date(t).toLocaleString();
}

/** This account's signed-in devices (built-in sign-in), each with a button that signs it out. */
export function DevicesList() {
  const { t } = useTranslation();
  const devices = useApiQuery('account.devices', {}, { staleTime: 30_000, retry: false });
  const revoke = useSyncMutation('account.revokeDevice');
  if (devices.error)
    return (
      <p className="muted" data-testid="sync-devices-none">
        {t('syncUi.devicesNone')}
      </p>
    );
  if (!devices.data) return null;
  return (
    <div className="sync-devices">
      <h4>{t('syncUi.devices')}</h4>
      <ul data-testid="sync-devices">
        {devices.data.devices.map((d) => (
          <li key={d.id} data-device-id={d.id}>
            <span>
              {d.name}
              {d.current ? ` (${t('syncUi.thisDevice')})` : ''} ·{' '}
              {d.revokedAt !== null
                ? t('syncUi.revoked', { when: when(d.revokedAt) })
                : d.lastSeenAt !== null
                  ? t('syncUi.lastSeen', { when: when(d.lastSeenAt) })
                  : t('syncUi.neverSeen')}
            </span>
            {d.revokedAt === null ? (
              <button
                type="button"
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(
                    { id: d.id },
                    {
                      onSuccess: () =>
                        showToast({
                          tone: 'info',
                          message: { key: 'syncUi.revokedToast', params: { name: d.name } },
                        }),
                    },
                  )
                }
              >
                {t('syncUi.revoke')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {revoke.error ? (
        <p className="error" role="alert">
          {revoke.error.message}
        </p>
      ) : null}
    </div>
  );
}
