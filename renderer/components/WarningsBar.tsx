import { useTranslation } from 'react-i18next';
import type { Warning } from '../../shared/api/notes.js';
import { uiStore, useUi } from '../state/ui-store.js';

export function warningKey(w: Warning): string {
  return `${w.code}|${w.scope ?? ''}|${w.path ?? ''}|${w.message}`;
}

/**
 * The core's warnings (note limit, unreadable files, user directory unavailable…). The bar can be
 * closed; the status bar keeps the count and opens it again, and a new warning opens it by itself.
 */
export function WarningsBar({ warnings }: { warnings: readonly Warning[] }) {
  const { t } = useTranslation();
  const hidden = useUi((s) => s.hiddenWarnings);
  if (warnings.length === 0 || warnings.every((w) => hidden.includes(warningKey(w)))) return null;
  return (
    <section className="warnings" role="alert" aria-label={t('warnings.title')} data-testid="warnings">
      <button
        type="button"
        className="icon warnings-close"
        aria-label={t('warnings.hide')}
        title={t('warnings.hide')}
        onClick={() => uiStore.getState().hideWarnings(warnings.map(warningKey))}
        data-testid="warnings-hide"
      >
        ×
      </button>
      <strong>{t('warnings.title')}</strong>
      <ul>
        {warnings.map((w, i) => (
          <li key={`${w.code}-${w.path ?? ''}-${i}`}>
            <span className="warning-code">{t(`warnings.${w.code}`, { defaultValue: w.code })}</span>
            {w.scope ? <span className="badge">{t(`scope.${w.scope}`)}</span> : null}{' '}
            {t('warnings.detail', { message: w.message, path: w.path ?? '' })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Warnings can come from several queries; the same problem is shown once. */
export function mergeWarnings(...lists: Array<readonly Warning[] | undefined>): Warning[] {
  const seen = new Set<string>();
  const out: Warning[] = [];
  for (const list of lists) {
    for (const w of list ?? []) {
      const key = warningKey(w);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
    }
  }
  return out;
}
