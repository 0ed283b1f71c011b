import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog.js';
import { editorStore } from '../state/editor-store.js';
import { useNoteActions } from '../pages/memory/useNoteActions.js';
import { resolveGuard, usePendingGuard } from './guard.js';

/** Save / Discard / Cancel before something would drop unsaved changes. */
export function GuardDialog() {
  const pending = usePendingGuard();
  const { t } = useTranslation();
  const { save } = useNoteActions();
  if (!pending) return null;
  return (
    <Dialog
      title={t('guard.title')}
      onCancel={() => resolveGuard(false)}
      testId="guard-dialog"
      actions={
        <>
          <button type="button" onClick={() => resolveGuard(false)}>
            {t('guard.cancel')}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => {
              editorStore.getState().close();
              resolveGuard(true);
            }}
            data-testid="guard-discard"
          >
            {t('guard.discard')}
          </button>
          <button
            type="button"
            className="primary"
            data-autofocus
            onClick={() => void save().then((ok) => resolveGuard(ok))}
            data-testid="guard-save"
          >
            {t('guard.save')}
          </button>
        </>
      }
    >
      <p>{t('guard.body')}</p>
    </Dialog>
  );
}
