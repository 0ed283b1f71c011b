import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiOutput } from '../../shared/api.js';
import { subscribeUnexpectedErrors, unexpectedErrorCount } from '../api/unexpected-error.js';
import { Dialog } from '../components/Dialog.js';

type AppErrors = ApiOutput<'app.status'>['unexpectedErrors'];

/**
 * The status bar's count of errors nobody expected — the app's (`app.status`, main process or
 * bridge) and this page's (renderer/api/unexpected-error.ts) — shown only when there are some;
 * it opens what is known of them and where their log is.
 */
export function UnexpectedErrorsItem({ app }: { app: AppErrors | undefined }) {
  const { t } = useTranslation();
  const page = useSyncExternalStore(subscribeUnexpectedErrors, unexpectedErrorCount);
  const [open, setOpen] = useState(false);
  const total = page + (app?.count ?? 0);
  if (total === 0) return null;
  return (
    <>
      <button
        type="button"
        className="status-item status-warn"
        onClick={() => setOpen(true)}
        data-testid="status-unexpected"
      >
        {t('status.unexpected', { count: total })}
      </button>
      {open ? (
        <Dialog
          title={t('status.unexpectedTitle')}
          onCancel={() => setOpen(false)}
          testId="unexpected-errors"
          actions={
            <button type="button" onClick={() => setOpen(false)} data-autofocus>
              {t('status.unexpectedClose')}
            </button>
          }
        >
          <p>{t('status.unexpectedIntro')}</p>
          <p data-testid="unexpected-app">{t('status.unexpectedApp', { count: app?.count ?? 0 })}</p>
          {app && app.count > 0 ? (
            <>
              <p>{app.log ? t('status.unexpectedAppLog') : t('status.unexpectedAppNoLog')}</p>
              {app.log ? (
                <code className="path" translate="no" data-testid="unexpected-log">
                  {app.log}
                </code>
              ) : null}
              <ul className="unexpected-recent" translate="no">
                {app.recent.map((r, i) => (
                  <li key={i}>
                    {r.where}: {r.message}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p data-testid="unexpected-page">{t('status.unexpectedPage', { count: page })}</p>
        </Dialog>
      ) : null}
    </>
  );
}
