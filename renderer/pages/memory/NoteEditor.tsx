import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { linkTargets } from '../../../shared/links.js';
import type { Scope } from '../../../shared/note.js';
import { isApiError } from '../../api/errors.js';
import { useApiQuery } from '../../api/queries.js';
import { useConfirm } from '../../components/Dialog.js';
import { MarkdownEditor } from '../../components/MarkdownEditor.js';
import { editorStore, isDirty, useEditor } from '../../state/editor-store.js';
import { draftStore, EMPTY_NEW_NOTE, isEmptyNewNote } from '../../state/draft-store.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore, useUi } from '../../state/ui-store.js';
import { conflictStore } from '../../sync/conflict-store.js';
import { useConflictList } from '../../sync/hooks.js';
import { ConflictDialog } from './ConflictDialog.js';
import { formatTime } from './format.js';
import { useLinkResolver } from './useLinkResolver.js';
import { useNoteActions } from './useNoteActions.js';
import { useSaveShortcut } from './useSaveShortcut.js';
import { NoteFields } from './NoteFields.js';

/** The backup reason of "keep mine"; the Backups page shows it in the person's language. */
const KEEP_MINE_REASON = 'replaced by "keep mine" in the editor';

/**
 * Opens the new-note form for a link's target. A new note already started keeps what it holds
 * (only an empty id is filled in): starting from a link never throws a draft away.
 */
function startNoteFromLink(id: string) {
  const current = draftStore.getState().newNote;
  if (isEmptyNewNote(current)) draftStore.getState().setNewNote({ ...EMPTY_NEW_NOTE, id });
  else if (current && !current.id.trim()) draftStore.getState().setNewNote({ ...current, id });
  editorStore.getState().close();
  uiStore.getState().select({ kind: 'new' });
}

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
  const fieldErrors = useEditor((s) => s.fieldErrors);
  const { save, remove } = useNoteActions();
  const links = useLinkResolver();
  const [saving, setSaving] = useState(false);
  const [comparing, setComparing] = useState(false);
  // Each asks about what its dialog names: the note's label, the link's target.
  const deleting = useConfirm((label: string) => void remove(id, scope, label));
  const creating = useConfirm(startNoteFromLink);
  const discarding = useConfirm(() => editorStore.getState().discard());
  const conflicts = useConflictList();
  const inConflict = !!conflicts.data?.conflicts.some((c) => c.id === id && c.scope === scope);
  const focusHere = useUi((s) => s.focusOnOpen?.id === id && s.focusOnOpen.scope === scope);

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

  async function doSave(opts: { backupReason?: string } = {}) {
    setSaving(true);
    try {
      const ok = await save(opts);
      // Saving does not settle a sync conflict: say so, so nobody thinks it did.
      if (ok && inConflict) showToast({ tone: 'info', message: { key: 'note.savedConflictOpen' } });
      if (!ok && editorStore.getState().diskVersion) setComparing(true);
    } finally {
      setSaving(false);
    }
  }

  useSaveShortcut(() => void doSave());

  const loaded = base && draft && base.id === id && base.scope === scope;
  // The summary field takes the focus as it is drawn (autoFocus); the request is then spent.
  useEffect(() => {
    if (loaded && focusHere) uiStore.getState().focusTaken();
  }, [loaded, focusHere]);
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
  // A link to a note not written yet offers to write it (as Obsidian does).
  const openLink = (target: string) => {
    const found = links.target(target);
    if (found) uiStore.getState().follow({ kind: 'note', ...found });
    else creating.ask(target);
  };
  const bodyLinks = linkTargets(draft.body);

  return (
    <article className="note-editor" aria-labelledby="note-editor-id" data-testid="note-editor">
      {/* The fields come first in the DOM: the first Tab stop after the list is the summary. The
          header and the banners are drawn above them (CSS order). */}
      <NoteFields draft={draft} set={set} fieldErrors={fieldErrors} idPrefix="" autoFocus={focusHere} />

      {/* Labelled like the fields above it; a <div>, not a <label>: the editor is not a form control. */}
      <div className="field field-body">
        <span id="note-body-label">{t('note.body')}</span>
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
      </div>

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
          <ul translate="no">
            {bodyLinks.map((l) => {
              const ok = links.resolve(l);
              return (
                <li key={l}>
                  {ok ? (
                    <button type="button" className="link" onClick={() => openLink(l)} data-testid="link">
                      [[{l}]]
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="link link-dangling"
                      onClick={() => openLink(l)}
                      data-testid="dangling-link"
                      title={t('note.createLinked')}
                    >
                      [[{l}]] <small>({t('note.dangling')})</small>
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </nav>
        <nav aria-label={t('note.backlinks')} className="links">
          <h3>{t('note.backlinks')}</h3>
          {base.backlinks.length === 0 ? <p className="muted">{t('note.noBacklinks')}</p> : null}
          <ul translate="no">
            {base.backlinks.map((b) => (
              <li key={`${b.scope}:${b.id}`}>
                <button
                  type="button"
                  className="link"
                  onClick={() => uiStore.getState().follow({ kind: 'note', id: b.id, scope: b.scope })}
                  data-testid="backlink"
                >
                  {b.summary || b.id}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </footer>
      <header className="note-header">
        <div className="note-title">
          <span className={`badge scope-${scope}`}>{t(`scope.${scope}`)}</span>
          <code className="note-id" id="note-editor-id" data-testid="note-id" translate="no">
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
          {dirty ? (
            <button type="button" onClick={() => discarding.ask(true)} data-testid="discard">
              {t('note.discardChanges')}
            </button>
          ) : null}
          <button
            type="button"
            className="danger"
            onClick={() => deleting.ask(base.summary || id)}
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
      {inConflict ? (
        <div className="banner banner-warn" role="status" data-testid="sync-conflict-banner">
          <span>{t('note.syncConflict')}</span>
          <button
            type="button"
            onClick={() => {
              conflictStore.getState().select({ id, scope });
              uiStore.getState().setActiveTab('conflicts');
            }}
            data-testid="resolve-conflict"
          >
            {t('note.resolveConflict')}
          </button>
        </div>
      ) : null}
      {deletedOnDisk ? (
        <div className="banner banner-warn" role="alert">
          {t('note.deletedOnDisk')}
        </div>
      ) : null}

      {deleting.dialog((label) => ({
        title: t('note.deleteConfirmTitle'),
        body: t('note.deleteConfirmBody', { summary: label }),
        confirmLabel: t('note.delete'),
        danger: true,
      }))}
      {comparing && diskVersion ? (
        <ConflictDialog
          mine={draft}
          disk={diskVersion}
          onClose={() => setComparing(false)}
          // The version on disk is someone's work too: backed up before mine replaces it.
          onKeepMine={() => void doSave({ backupReason: KEEP_MINE_REASON })}
        />
      ) : null}
      {creating.dialog((target) => ({
        title: t('note.createLinkedTitle', { id: target }),
        body: t('note.createLinkedBody', { id: target }),
        confirmLabel: t('note.createLinked'),
      }))}
      {discarding.dialog({
        title: t('note.discardChangesTitle'),
        body: t('note.discardChangesBody'),
        confirmLabel: t('note.discardChanges'),
        danger: true,
      })}
    </article>
  );
}
