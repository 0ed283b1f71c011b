import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NoteType, Scope } from '../../../shared/note.js';
import { useApiClient } from '../../api/context.js';
import { invalidateForEvent } from '../../api/queries.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { TypeSelect } from '../../components/TypeSelect.js';

/** Creating a note goes through the core's remember: it reports a probable duplicate and links not written yet. */
export function NewNoteForm() {
  const { t } = useTranslation();
  const client = useApiClient();
  const qc = useQueryClient();
  const [summary, setSummary] = useState('');
  const [type, setType] = useState<NoteType | ''>('project');
  const [tags, setTags] = useState('');
  const [scope, setScope] = useState<Scope | ''>('');
  const [id, setId] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await client.call('notes.remember', {
        summary,
        body,
        tags,
        ...(type ? { type } : {}),
        ...(scope ? { scope } : {}),
        ...(id.trim() ? { id: id.trim() } : {}),
      });
      invalidateForEvent(qc, { type: 'notes.changed' });
      showToast({ tone: 'info', message: t('note.createdToast', { id: r.id }) });
      if (r.duplicateOf) showToast({ tone: 'info', message: t('note.duplicateOf', { id: r.duplicateOf }) });
      if (r.danglingLinks.length)
        showToast({ tone: 'info', message: t('note.danglingLinks', { ids: r.danglingLinks.join(', ') }) });
      uiStore.getState().select({ kind: 'note', id: r.id, scope: r.scope });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="note-editor new-note"
      onSubmit={create}
      aria-label={t('note.new')}
      data-testid="new-note-form"
    >
      <header className="note-header">
        <h2>{t('note.new')}</h2>
        <div className="note-actions">
          <button type="button" onClick={() => uiStore.getState().select(null)}>
            {t('confirm.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy || !summary.trim()} data-testid="create">
            {t('note.create')}
          </button>
        </div>
      </header>
      {error ? (
        <p className="error" role="alert" data-testid="create-error">
          {error}
        </p>
      ) : null}
      <div className="fields">
        <label className="field field-wide">
          <span>{t('note.summary')}</span>
          <input
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
            required
            autoFocus
            data-testid="new-summary"
          />
        </label>
        <label className="field">
          <span>{t('note.type')}</span>
          <TypeSelect value={type} onChange={setType} testId="new-type" />
        </label>
        <label className="field">
          <span>{t('note.scope')}</span>
          <select
            value={scope}
            onChange={(e) => setScope(e.target.value as Scope | '')}
            data-testid="new-scope"
          >
            <option value="">{t(`scope.${type === 'user' ? 'user' : 'project'}`)} (auto)</option>
            <option value="project">{t('scope.project')}</option>
            <option value="user">{t('scope.user')}</option>
          </select>
        </label>
        <label className="field field-wide">
          <span>
            {t('note.tags')} <small className="muted">({t('note.tagsHint')})</small>
          </span>
          <input value={tags} onChange={(e) => setTags(e.target.value)} data-testid="new-tags" />
        </label>
        <label className="field">
          <span>{t('note.id')}</span>
          <input value={id} onChange={(e) => setId(e.target.value)} data-testid="new-id" />
        </label>
      </div>
      <label className="field field-body">
        <span>{t('note.body')}</span>
        <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={14} data-testid="new-body" />
      </label>
    </form>
  );
}
