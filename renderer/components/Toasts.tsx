import { useTranslation } from 'react-i18next';
import { toastStore, useToasts } from '../state/toast-store.js';

export function Toasts() {
  const toasts = useToasts();
  const { t } = useTranslation();
  return (
    <div className="toasts" role="status" aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <span>
            {toast.message}
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
              {toast.action.label}
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
