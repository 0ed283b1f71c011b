import { useTranslation } from 'react-i18next';
import type { Warning } from '../../shared/api/notes.js';

/** The core's warnings (note limit, unreadable files, user directory unavailable…), always visible. */
export function WarningsBar({ warnings }: { warnings: readonly Warning[] }) {
  const { t } = useTranslation();
  if (warnings.length === 0) return null;
  return (
    <section className="warnings" role="alert" aria-label={t('warnings.title')} data-testid="warnings">
      <strong>{t('warnings.title')}</strong>
      <ul>
        {warnings.map((w, i) => (
          <li key={`${w.code}-${w.path ?? ''}-${i}`}>
            <span className="warning-code">{t(`warnings.${w.code}`, { defaultValue: w.code })}</span>
            {w.scope ? <span className="badge">{t(`scope.${w.scope}`)}</span> : null} {w.message}
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
      const key = `${w.code}|${w.scope ?? ''}|${w.path ?? ''}|${w.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
    }
  }
  return out;
}
