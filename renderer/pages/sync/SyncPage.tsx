import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { registerCommand } from '../../app/commands.js';
import { showToast } from '../../state/toast-store.js';

/** The sync panel — filled by the sync UI issue (关闭云同步, 立即同步, last synced, errors). Replace this; keep the exports. */
export function SyncPage() {
  const { t } = useTranslation();
  return (
    <div className="page placeholder" data-testid="sync-placeholder">
      <h2>{t('tabs.sync')}</h2>
      <p className="muted">{t('placeholders.sync')}</p>
    </div>
  );
}

/**
 * Always mounted (in the header): handles the menu's "Sync now" (立即同步). Until sync exists it
 * says so instead of doing nothing.
 */
export function SyncHeaderSlot() {
  const { t } = useTranslation();
  useEffect(
    () => registerCommand('sync.now', () => showToast({ tone: 'info', message: t('sync.notConfigured') })),
    [t],
  );
  return null;
}
