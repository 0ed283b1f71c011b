import { useTranslation } from 'react-i18next';

/** 待整理 — filled by the cleanup issue (findings, merge editor). Replace this component; keep the export. */
export function CleanupPage() {
  const { t } = useTranslation();
  return (
    <div className="page placeholder" data-testid="cleanup-placeholder">
      <h2>{t('tabs.cleanup')}</h2>
      <p className="muted">{t('placeholders.cleanup')}</p>
    </div>
  );
}

/** The tab's count badge (number of findings); null hides it. */
export function useCleanupBadge(): number | null {
  return null;
}
