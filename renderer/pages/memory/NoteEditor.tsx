import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Scope } from '../../../shared/note.js';
import { isApiError } from '../../api/errors.js';
import { useApiQuery } from '../../api/queries.js';
import { registerCommand } from '../../app/commands.js';
import { guarded } from '../../app/guard.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { MarkdownEditor } from '../../components/MarkdownEditor.js';
import { editorStore, isDirty, useEditor } from '../../state/editor-store.js';
import { uiStore } from '../../state/ui-store.js';
import { ConflictDialog } from './ConflictDialog.js';
import { formatTime } from './format.js';
import { useLinkResolver } from './useLinkResolver.js';
import { useNoteActions } from './useNoteActions.js';
import { TypeSelect } from '../../components/TypeSelect.js';

export function NoteEditor({ id, scope }: { id: string; scope: Scope }) {
  const { t, i18n } = useTranslation();
  const note = useApiQuery(
    'notes.get',
    { id, scope },
    { retry: (n, err) => !isApiError(err, 'not_found') && n < 2 },
  );
  const base = useEditor((s) => s.base);
  const draft = useEditor((s) => s.draft);
  const diskVersion = useEditor((s) => s.diskVersion);
  const deletedOnDisk = useEditor((s) => s.deletedOnDisk);
  const dirty = useEditor(isDirty);
  const { save, remove } = useNoteActions();
  const links = useLinkResolver();
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [comparing, setComparing] = useState(false);

  // Every version the core hands us (first load, our save, an edit on disk) goes through receive():
  // it replaces a clean draft and holds back on a dirty one.
  useEffect(() => {
    if (note.data) editorStore.getState().receive(note.data);
  }, [note.data]);
  useEffect(() => {
    const s = editorStore.getState();
    if (isApiError(note.error, 'not_found') && s.base?.id === id && s.base.scope === scope)
      s.markDeletedOnDisk();
  }, [note.error, id, scope]);

  async function doSave() {
    setSaving(true);
    try {
      const ok = await save();
      if (!ok && editorStore.getState().diskVersion) setComparing(true);
    } finally {
      setSaving(false);
    }
  }

  useEffect(() => registerCommand('note.save', () => void doSave()));
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (!e.defaultPrevented && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void doSave();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const loaded = base && draft && base.id === id && base.scope === scope;
  if (!loaded) {
    if (note.error)
      return (
        <p className="error" role="alert">
          {t('note.loadError', { message: note.error.message })}
        </p>
      );
    return <p className="muted">{t('list.loading')}</p>;
  }

  const set = editorStore.getState().setField;
  const openLink = (target: string) => {
    const found = links.target(target);
    if (found) guarded(() => uiStore.getState().select({ kind: 'note', ...found }));
  };
  const bodyLinks = [...new Set([...draft.body.matchAll(/\[\[([^[\]\n]+?)\]\]/g)].map((m) => m[1]!.trim()))];

  return (
    <article className="note-editor" aria-label={draft.summary || id} data-testid="note-editor">
      <header className="note-header">
        <div className="note-title">
          <span className={`badge scope-${scope}`}>{t(`scope.${scope}`)}</span>
          <code className="note-id" data-testid="note-id">
            {id}
          </code>
          {dirty ? (
            <span className="unsaved" data-testid="unsaved">
              ● {t('note.unsaved')}
            </span>
          ) : null}
        </div>
        <div className="note-actions">
          <button
            type="button"
            className="primary"
            onClick={() => void doSave()}
            disabled={saving || (!dirty && !deletedOnDisk)}
            aria-keyshortcuts="Control+S Meta+S"
            data-testid="save"
          >
            {saving ? t('note.saving') : t('note.save')}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => setConfirmDelete(true)}
            disabled={deletedOnDisk}
            data-testid="delete"
          >
            {t('note.delete')}
          </button>
        </div>
      </header>

      {diskVersion ? (
        <div className="banner banner-warn" role="alert" data-testid="disk-conflict">
          <span>{t('conflict.banner')}</span>
          <button type="button" onClick={() => setComparing(true)}>
            {t('conflict.compare')}
          </button>
        </div>
      ) : null}
      {deletedOnDisk ? (
        <div className="banner banner-warn" role="alert">
          {t('note.deletedOnDisk')}
        </div>
      ) : null}

      <div className="fields">
        <label className="field field-wide">
          <span>{t('note.summary')}</span>
          <input
            value={draft.summary}
            onChange={(e) => set('summary', e.target.value)}
            data-testid="summary"
          />
        </label>
        <label className="field">
          <span>{t('note.type')}</span>
          <TypeSelect value={draft.type} onChange={(v) => set('type', v)} testId="type" />
        </label>
        <label className="field field-wide">
          <span>
            {t('note.tags')} <small className="muted">({t('note.tagsHint')})</small>
          </span>
          <input value={draft.tags} onChange={(e) => set('tags', e.target.value)} data-testid="tags" />
        </label>
      </div>

      <MarkdownEditor
        docKey={`${scope}:${id}`}
        value={draft.body}
        onChange={(v) => set('body', v)}
        onSave={() => void doSave()}
        resolveLink={links.resolve}
        onOpenLink={openLink}
        ariaLabel={t('note.body')}
        openHint={t('note.openLink')}
        linksVersion={links.version}
      />

      <footer className="note-footer">
        <dl className="note-meta">
          <dt>{t('note.created')}</dt>
          <dd>{formatTime(base.createdAt, i18n.language)}</dd>
          <dt>{t('note.updated')}</dt>
          <dd>{formatTime(base.updatedAt, i18n.language)}</dd>
          <dd data-testid="recall-count">
            {t('note.recallCount', { count: base.recallCount })}
            {base.lastRecalledAt !== null
              ? ` · ${t('note.lastRecalled', { when: formatTime(base.lastRecalledAt, i18n.language) })}`
              : ''}
          </dd>
        </dl>
        <nav aria-label={t('note.links')} className="links">
          <h3>{t('note.links')}</h3>
          {bodyLinks.length === 0 ? <p className="muted">{t('note.noLinks')}</p> : null}
          <ul>
            {bodyLinks.map((l) => {
              const ok = links.resolve(l);
              return (
                <li key={l}>
                  {ok ? (
                    <button type="button" className="link" onClick={() => openLink(l)} data-testid="link">
                      [[{l}]]
                    </button>
                  ) : (
                    <span className="link-dangling" data-testid="dangling-link" title={t('note.dangling')}>
                      [[{l}]] <small>({t('note.dangling')})</small>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </nav>
        <nav aria-label={t('note.backlinks')} className="links">
          <h3>{t('note.backlinks')}</h3>
          {base.backlinks.length === 0 ? <p className="muted">{t('note.noBacklinks')}</p> : null}
          <ul>
            {base.backlinks.map((b) => (
              <li key={`${b.scope}:${b.id}`}>
                <button
                  type="button"
                  className="link"
                  onClick={() =>
                    guarded(() => uiStore.getState().select({ kind: 'note', id: b.id, scope: b.scope }))
                  }
                  data-testid="backlink"
                >
                  {b.summary || b.id}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </footer>

      {confirmDelete ? (
        <ConfirmDialog
          title={t('note.deleteConfirmTitle')}
          body={t('note.deleteConfirmBody', { summary: base.summary || id })}
          confirmLabel={t('note.delete')}
          cancelLabel={t('confirm.cancel')}
          danger
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void remove(id, scope, base.summary || id);
          }}
        />
      ) : null}
      {comparing && diskVersion ? (
        <ConflictDialog
          mine={draft}
          disk={diskVersion}
          onClose={() => setComparing(false)}
          onKeepMine={() => void doSave()}
        />
      ) : null}
    </article>
  );
}
