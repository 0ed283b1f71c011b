import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Scope } from '../../../shared/note.js';
import { useApiClient } from '../../api/context.js';
import { fieldErrorsOf, requiredFieldErrors } from '../../api/describe-error.js';
import { isApiError } from '../../api/errors.js';
import { apiKey, invalidateForEvent } from '../../api/queries.js';
import { editorStore, isDirty } from '../../state/editor-store.js';
import { showToast, toastStore } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { onUnexpectedError } from '../../api/unexpected-error.js';

let inflight: Promise<boolean> | null = null;

/** Save, delete (with undo) and restore, shared by the editor, the menu and the guard dialog. */
export function useNoteActions() {
  const client = useApiClient();
  const qc = useQueryClient();
  const { t } = useTranslation();

  function refresh() {
    invalidateForEvent(qc, { type: 'notes.changed' });
  }

  /**
   * Returns true when the note is saved (or there was nothing to save). One save at a time.
   * `backupReason`: the version on disk is backed up first (the person replaces it knowingly).
   */
  function save(opts: { backupReason?: string } = {}): Promise<boolean> {
    if (inflight) return inflight;
    inflight = doSave(opts).finally(() => {
      inflight = null;
    });
    return inflight;
  }

  async function doSave(opts: { backupReason?: string }): Promise<boolean> {
    const s = editorStore.getState();
    if (!s.base || !s.draft) return true;
    if (s.diskVersion) return false; // the person has to choose first
    if (!isDirty(s) && !s.deletedOnDisk) return true;
    const { base, draft } = s;
    const toastKey = `save:${base.scope}:${base.id}`;
    const missing = requiredFieldErrors(draft, t);
    if (missing) {
      s.setFieldErrors(missing);
      return false;
    }
    try {
      if (s.deletedOnDisk) {
        await client.call('notes.remember', {
          id: base.id,
          scope: base.scope,
          summary: draft.summary,
          ...(draft.type ? { type: draft.type } : {}),
          tags: draft.tags,
          body: draft.body,
        });
        const fresh = await client.call('notes.get', { id: base.id, scope: base.scope });
        editorStore.getState().saved(fresh);
      } else {
        const saved = await client.call('notes.edit', {
          id: base.id,
          scope: base.scope,
          summary: draft.summary,
          type: draft.type === '' ? null : draft.type,
          tags: draft.tags,
          body: draft.body,
          baseHash: base.hash,
          ...(opts.backupReason ? { backupReason: opts.backupReason } : {}),
        });
        editorStore.getState().saved(saved);
        qc.setQueryData(apiKey('notes.get', { id: base.id, scope: base.scope }), saved);
      }
      toastStore.getState().dismissKey(toastKey);
      refresh();
      return true;
    } catch (err) {
      if (isApiError(err, 'conflict')) {
        // Changed on disk since the editor loaded it: fetch that version and let the person choose.
        let fresh;
        try {
          fresh = await client.call('notes.get', { id: base.id, scope: base.scope });
        } catch (e) {
          if (isApiError(e, 'not_found')) {
            editorStore.getState().markDeletedOnDisk();
            return false;
          }
          // Not a deletion: say what failed; the draft stays as it is (and kept) for the next try.
          onUnexpectedError(e, 'note editor: reload after conflict');
          showToast({
            tone: 'error',
            key: toastKey,
            message: { key: 'note.reloadFailed', params: { error: { error: e } } },
          });
          return false;
        }
        editorStore.getState().receive(fresh);
        return false;
      }
      const fields = fieldErrorsOf(err, t);
      if (fields) editorStore.getState().setFieldErrors(fields);
      else showToast({ tone: 'error', key: toastKey, message: { error: err } });
      return false;
    }
  }

  async function restore(backupId: string, select = true): Promise<void> {
    try {
      const r = await client.call('backups.restore', { backupId });
      // An undo offer for a note that is back would only confuse.
      for (const toast of toastStore.getState().toasts)
        if (toast.action) toastStore.getState().dismiss(toast.id);
      refresh();
      showToast({ tone: 'info', message: { key: 'note.restored' }, subject: r.id });
      if (select && r.scope) uiStore.getState().select({ kind: 'note', id: r.id, scope: r.scope });
    } catch (err) {
      showToast({ tone: 'error', message: { error: err } });
    }
  }

  async function remove(id: string, scope: Scope, summary: string): Promise<void> {
    try {
      const r = await client.call('notes.forget', { id, scope });
      // Only if the person is still on that note: they may have moved on while it was deleted.
      const sel = uiStore.getState().selection;
      if (sel?.kind === 'note' && sel.id === id && sel.scope === scope) {
        editorStore.getState().close();
        uiStore.getState().select(null);
      }
      refresh();
      showToast({
        tone: 'info',
        message: { key: 'note.deleted' },
        subject: summary,
        action: { label: { key: 'note.undo' }, run: () => restore(r.backupId) },
      });
    } catch (err) {
      showToast({ tone: 'error', message: { error: err } });
    }
  }

  return { save, remove, restore };
}
