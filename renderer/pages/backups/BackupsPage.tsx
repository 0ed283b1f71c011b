import { describeError } from '../../api/describe-error.js';
import { backupReasonText } from './reasons.js';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.js';
import { useConfirm } from '../../components/Dialog.js';
import { PageHeader } from '../../components/PageHeader.js';
import { uiStore } from '../../state/ui-store.js';
import { formatTime } from '../memory/format.js';
import { useNoteActions } from '../memory/useNoteActions.js';

type BackupRow = {
  id: string;
  noteId: string;
  scope: 'project' | 'user' | null;
  summary: string | null;
  reason: string | null;
  at: number;
  originDir: string | null;
};

export function BackupsPage() {
  const { t, i18n } = useTranslation();
  const backups = useApiQuery('backups.list', { limit: 50 });
  const { restore } = useNoteActions();
  const restoring = useConfirm((b: BackupRow) => {
    void restore(b.id, false).then(() => {
      if (b.scope) {
        uiStore.getState().select({ kind: 'note', id: b.noteId, scope: b.scope });
      }
    });
  });
  const rows = backups.data?.backups ?? [];
  return (
    <div className="page backups-page">
      <PageHeader
        title={t('backups.title')}
        intro={t('backups.intro')}
        error={backups.error ? describeError(backups.error, t) : null}
      />
      {!backups.isPending && rows.length === 0 ? <p className="empty">{t('backups.empty')}</p> : null}
      {rows.length > 0 ? (
        <table className="backups" data-testid="backups-table">
          <thead>
            <tr>
              <th scope="col">{t('backups.when')}</th>
              <th scope="col">{t('backups.note')}</th>
              <th scope="col">{t('backups.scope')}</th>
              <th scope="col">{t('backups.reason')}</th>
              <th scope="col">
                <span className="sr-only">{t('backups.restore')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.id} data-testid="backup-row" data-note-id={b.noteId}>
                <td>{formatTime(b.at, i18n.language)}</td>
                <td>
                  <div translate="no">{b.summary ?? b.noteId}</div>
                  <code className="muted" translate="no">
                    {b.noteId}
                  </code>
                </td>
                <td>{b.scope ? t(`scope.${b.scope}`) : '—'}</td>
                <td>
                  {b.reason !== null ? (
                    backupReasonText(b.reason, t)
                  ) : (
                    <span className="muted">{t('backups.noReason')}</span>
                  )}
                </td>
                <td>
                  <button type="button" onClick={() => restoring.ask(b)} data-testid="restore">
                    {t('backups.restore')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {restoring.dialog((b) => ({
        title: t('backups.confirmTitle'),
        body: t('backups.confirmBody', { id: b.noteId, dir: b.originDir ?? '—' }),
        confirmLabel: t('backups.restore'),
      }))}
    </div>
  );
}
