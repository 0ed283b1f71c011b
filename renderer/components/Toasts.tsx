import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { describeError } from '../api/describe-error.js';
import { toastStore, useToasts, type ToastWords } from '../state/toast-store.js';

/** A toast's words in the language shown now (a toast stays up across a switch of language). */
function worded(words: ToastWords | ToastWords[], t: TFunction): string {
  if (Array.isArray(words)) return words.map((w) => worded(w, t)).join(' ');
  if ('key' in words) {
    const params = Object.entries(words.params ?? {}).map(([k, v]) => [
      k,
      typeof v === 'object' ? worded(v, t) : v,
    ]);
    return String(t(words.key, Object.fromEntries(params)));
  }
  if ('error' in words) return describeError(words.error, t);
  return words.text;
}

export function Toasts() {
  const toasts = useToasts();
  const { t } = useTranslation();
  return (
    <div className="toasts" role="status" aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <span>
            {worded(toast.message, t)}
            {toast.subject !== undefined ? (
              <>
                {' '}
                <q translate="no">{toast.subject}</q>
              </>
            ) : null}
          </span>
          {toast.action && (
            <button
              type="button"
              onClick={() => {
                toastStore.getState().dismiss(toast.id);
                void toast.action!.run();
              }}
            >
              {worded(toast.action.label, t)}
            </button>
          )}
          <button
            type="button"
            className="icon"
            aria-label={t('note.close')}
            onClick={() => toastStore.getState().dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
