import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteType } from '../../../shared/note.js';
import { MergeTextEditor } from '../../sync/MergeTextEditor.js';
import { CONFLICT_MARKER } from '../../sync/diff.js';
import { useConfirm } from '../../components/Dialog.js';
import { TypeSelect } from '../../components/TypeSelect.js';
import { WithNoteId } from '../../components/WithNoteId.js';
import { draftStore, sameFields, type DraftFields } from '../../state/draft-store.js';

export interface MergedFields {
  summary: string;
  type?: NoteType;
  tags: string[];
  body: string;
}

/** The automatic merge as form fields (what the draft store keeps). */
export function fieldsOfMerge(m: MergedFields): DraftFields {
  return { summary: m.summary, type: m.type ?? '', tags: m.tags.join(', '), body: m.body };
}

/**
 * Merge by hand: a CodeMirror pane seeded with the automatic merge (conflict markers where it could
 * not merge) plus the summary, type and tags. Saving is refused while markers remain. What the
 * person types is kept per conflict in the draft store (as 待整理's merge drafts): Close, Esc,
 * another conflict, another tab or a reload keep it; only saving or "Discard draft" (which asks)
 * ends it.
 */
export function HandMerge(props: {
  /** The draft store's key of this conflict (syncMergeKey). */
  draftKey: string;
  id: string;
  /** The automatic merge. */
  seed: MergedFields;
  saving: boolean;
  onSave: (merged: MergedFields) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const seed = fieldsOfMerge(props.seed);
  const [kept, setKept] = useState(() => draftStore.getState().merges[props.draftKey] !== undefined);
  const [fields, setFields] = useState<DraftFields>(
    () => draftStore.getState().merges[props.draftKey] ?? seed,
  );
  const [docKey, setDocKey] = useState(0);
  const { summary, type, tags, body } = fields;
  const markers = CONFLICT_MARKER.test(body);

  function edit(next: DraftFields) {
    setFields(next);
    if (sameFields(next, seed)) draftStore.getState().dropMerge(props.draftKey);
    else draftStore.getState().putMerge(props.draftKey, next);
  }

  function discard() {
    draftStore.getState().dropMerge(props.draftKey);
    setFields(seed);
    setKept(false);
    setDocKey((k) => k + 1);
  }
  const discarding = useConfirm(discard);

  const save = () => {
    if (markers || !summary.trim() || props.saving) return;
    props.onSave({
      summary: summary.trim(),
      ...(type ? { type } : {}),
      tags: tags
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      body,
    });
  };
  const edited = !sameFields(fields, seed);
  return (
    <section
      className="merge-editor"
      aria-labelledby="hand-merge-title"
      data-testid="hand-merge"
      onKeyDown={(e) => {
        // Esc closes the hand merge (its draft kept); a dialog above it stops its own Esc.
        if (e.key === 'Escape') {
          e.preventDefault();
          props.onClose();
        }
      }}
    >
      <h3 id="hand-merge-title">
        <WithNoteId sentence={(id) => t('syncUi.mergeTitle', { id })} id={props.id} />
      </h3>
      {kept ? (
        <p className="notice" role="status" data-testid="merge-draft-kept">
          {t('syncUi.keptDraft')}
        </p>
      ) : null}
      <p className="muted">{t('syncUi.mergeHint')}</p>
      <div className="fields">
        <MergeText field="summary" label={t('syncUi.summary')} fields={fields} edit={edit} />
        <label htmlFor="merge-type">{t('syncUi.type')}</label>
        <TypeSelect id="merge-type" value={type} onChange={(v) => edit({ ...fields, type: v })} />
        <MergeText field="tags" label={t('syncUi.tags')} fields={fields} edit={edit} />
        {/* Not a <label>: the text editor is not a form control; labelled by name for screen readers. */}
        <span className="merge-body-label">{t('syncUi.body')}</span>
        <MergeTextEditor
          docKey={`${props.draftKey}#${docKey}`}
          value={body}
          onChange={(b) => edit({ ...fields, body: b })}
          onSave={save}
          ariaLabel={t('syncUi.body')}
        />
      </div>
      {markers ? (
        <p className="error" role="status" data-testid="merge-markers-left">
          {t('syncUi.markersLeft')}
        </p>
      ) : null}
      <div className="conflict-actions">
        <button
          type="button"
          className="primary"
          disabled={markers || !summary.trim() || props.saving}
          onClick={save}
          data-testid="merge-save"
        >
          {t('syncUi.saveMerge')}
        </button>
        <button type="button" onClick={props.onClose} data-testid="merge-cancel">
          {t('syncUi.close')}
        </button>
        <button
          type="button"
          disabled={!edited}
          onClick={() => discarding.ask(true)}
          data-testid="merge-discard"
        >
          {t('syncUi.discardDraft')}
        </button>
      </div>
      {discarding.dialog({
        title: t('syncUi.discardDraftTitle'),
        body: t('syncUi.discardDraftBody'),
        confirmLabel: t('syncUi.discardDraftConfirm'),
        danger: true,
      })}
    </section>
  );
}

/** The merge's summary or tags: its label, then its input (`merge-FIELD` its id and test id). */
function MergeText(props: {
  field: 'summary' | 'tags';
  label: string;
  fields: DraftFields;
  edit: (next: DraftFields) => void;
}) {
  const { field, fields } = props;
  const id = `merge-${field}`;
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        value={fields[field]}
        onChange={(e) => props.edit({ ...fields, [field]: e.target.value })}
        data-testid={id}
      />
    </>
  );
}
