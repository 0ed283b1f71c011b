import { useTranslation } from 'react-i18next';

/** Sync conflicts — filled by the sync UI issue (three-pane view). Replace this component; keep the export. */
export function ConflictsPage() {
  const { t } = useTranslation();
  return (
    <div className="page placeholder" data-testid="conflicts-placeholder">
      <h2>{t('tabs.conflicts')}</h2>
      <p className="muted">{t('placeholders.conflicts')}</p>
    </div>
  );
}

/** The conflict count badge; null hides it. */
export function useConflictsBadge(): number | null {
  return null;
}
