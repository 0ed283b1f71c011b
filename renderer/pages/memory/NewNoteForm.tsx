import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Scope } from '../../../shared/note.js';
import { useApiClient } from '../../api/context.js';
import {
  describeError,
  fieldErrorsOf,
  requiredFieldErrors,
  type FieldErrors,
} from '../../api/describe-error.js';
import { invalidateForEvent } from '../../api/queries.js';
import { useConfirm } from '../../components/Dialog.js';
import { FieldError } from '../../components/FieldError.js';
import { draftStore, EMPTY_NEW_NOTE, useDrafts, type NewNoteDraft } from '../../state/draft-store.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { NoteFields } from './NoteFields.js';
import { useSaveShortcut } from './useSaveShortcut.js';

type Duplicate = { id: string; scope: Scope; summary: string };

/**
 * Creating a note goes through the core's remember. The form is a draft kept in the draft store:
 * opening another note and coming back (or a reload) finds it as it was; only Create or
 * "Discard draft" ends it. A probable duplicate is reported before the note is written.
 */
export function NewNoteForm() {
  const { t } = useTranslation();
  const client = useApiClient();
  const qc = useQueryClient();
  const draft = useDrafts((s) => s.newNote) ?? EMPTY_NEW_NOTE;
  const [fieldErrors, setFieldErrors] = useState<FieldErrors | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const discarding = useConfirm(() => {
    setFieldErrors(null);
    draftStore.getState().setNewNote(null);
  });
  const [busy, setBusy] = useState(false);
  // The duplicate warning was seen for exactly this summary/body: "Create anyway" goes ahead.
  const acknowledged = useRef<string | null>(null);

  const set = <K extends keyof NewNoteDraft>(key: K, value: NewNoteDraft[K]) => {
    draftStore.getState().setNewNote({ ...(draftStore.getState().newNote ?? EMPTY_NEW_NOTE), [key]: value });
    if (fieldErrors?.[key as keyof FieldErrors]) setFieldErrors({ ...fieldErrors, [key]: undefined });
    if (key === 'summary' || key === 'body') setDuplicate(null);
  };

  async function create() {
    if (busy) return;
    const d = draftStore.getState().newNote ?? EMPTY_NEW_NOTE;
    setError(null);
    const missing = requiredFieldErrors(d, t);
    setFieldErrors(missing);
    if (missing) return;
    setBusy(true);
    try {
      const fingerprint = `${d.summary}\u0000${d.body}`;
      if (acknowledged.current !== fingerprint) {
        const check = await client.call('notes.related', {
          summary: d.summary,
          body: d.body,
          tags: d.tags,
          ...(d.type ? { type: d.type } : {}),
        });
        if (check.duplicateOf) {
          acknowledged.current = fingerprint;
          setDuplicate(check.duplicateOf);
          return;
        }
      }
      const r = await client.call('notes.remember', {
        summary: d.summary,
        body: d.body,
        tags: d.tags,
        ...(d.type ? { type: d.type } : {}),
        ...(d.scope ? { scope: d.scope } : {}),
        ...(d.id.trim() ? { id: d.id.trim() } : {}),
      });
      draftStore.getState().setNewNote(null);
      invalidateForEvent(qc, { type: 'notes.changed' });
      showToast({ tone: 'info', message: { key: 'note.createdToast' }, subject: r.id });
      if (r.danglingLinks.length)
        showToast({
          tone: 'info',
          message: { key: 'note.danglingLinks', params: { ids: r.danglingLinks.join(', ') } },
        });
      uiStore.getState().select({ kind: 'note', id: r.id, scope: r.scope });
    } catch (err) {
      const fields = fieldErrorsOf(err, t);
      if (fields) setFieldErrors(fields);
      else setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  useSaveShortcut(() => void create());

  return (
    <form
      className="note-editor new-note"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      aria-label={t('note.new')}
      data-testid="new-note-form"
      noValidate
    >
      <header className="note-header">
        <h2>{t('note.new')}</h2>
        <div className="note-actions">
          <button type="button" onClick={() => uiStore.getState().select(null)} data-testid="new-close">
            {t('note.close')}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => discarding.ask(true)}
            disabled={!draftStore.getState().newNote}
            data-testid="new-discard"
          >
            {t('note.discardDraft')}
          </button>
          <button
            type="submit"
            className="primary"
            disabled={busy}
            aria-keyshortcuts="Control+S Meta+S"
            data-testid="create"
          >
            {t('note.create')}
          </button>
        </div>
      </header>
      {duplicate ? (
        <div className="banner banner-warn" role="alert" data-testid="duplicate-warning">
          <span>{t('note.duplicateBefore', { summary: duplicate.summary || duplicate.id })}</span>
          <button
            type="button"
            onClick={() =>
              uiStore.getState().select({ kind: 'note', id: duplicate.id, scope: duplicate.scope })
            }
            data-testid="open-duplicate"
          >
            {t('note.openExisting')}
          </button>
          <button type="button" onClick={() => void create()} data-testid="create-anyway">
            {t('note.createAnyway')}
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="create-error">
          {error}
        </p>
      ) : null}
      <NoteFields
        draft={draft}
        set={set}
        fieldErrors={fieldErrors}
        idPrefix="new-"
        autoFocus
        afterType={
          <label className="field">
            <span>{t('note.scope')}</span>
            <select
              value={draft.scope}
              onChange={(e) => set('scope', e.target.value as Scope | '')}
              data-testid="new-scope"
            >
              <option value="">
                {t('note.scopeAuto', { scope: t(`scope.${draft.type === 'user' ? 'user' : 'project'}`) })}
              </option>
              <option value="project">{t('scope.project')}</option>
              <option value="user">{t('scope.user')}</option>
            </select>
          </label>
        }
        after={
          <label className="field">
            <span>{t('note.id')}</span>
            <input
              value={draft.id}
              onChange={(e) => set('id', e.target.value)}
              aria-invalid={!!fieldErrors?.id}
              aria-describedby={fieldErrors?.id ? 'new-id-error' : undefined}
              data-testid="new-id"
            />
            <FieldError id="new-id-error" message={fieldErrors?.id} />
          </label>
        }
      />
      <label className="field field-body">
        <span>{t('note.body')}</span>
        <textarea
          value={draft.body}
          onChange={(e) => set('body', e.target.value)}
          rows={14}
          data-testid="new-body"
        />
      </label>
      {discarding.dialog({
        title: t('note.discardDraftTitle'),
        body: t('note.discardDraftBody'),
        confirmLabel: t('note.discardDraft'),
        danger: true,
      })}
    </form>
  );
}
