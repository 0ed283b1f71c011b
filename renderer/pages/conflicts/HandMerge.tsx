import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_TYPES, type NoteType } from '../../../shared/note.js';
import { MergeTextEditor } from '../../sync/MergeTextEditor.js';
import { CONFLICT_MARKER } from '../../sync/diff.js';
import { WithNoteId } from '../../components/WithNoteId.js';

export interface MergedFields {
  summary: string;
  type?: NoteType;
  tags: string[];
  body: string;
}

/**
 * Merge by hand: a CodeMirror pane seeded with the automatic merge (conflict markers where it could
 * not merge) plus the summary, type and tags. Saving is refused while markers remain.
 */
export function HandMerge(props: {
  conflictKey: string;
  id: string;
  draft: MergedFields;
  saving: boolean;
  onSave: (merged: MergedFields) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [summary, setSummary] = useState(props.draft.summary);
  const [type, setType] = useState<NoteType | ''>(props.draft.type ?? '');
  const [tags, setTags] = useState(props.draft.tags.join(', '));
  const [body, setBody] = useState(props.draft.body);
  const markers = CONFLICT_MARKER.test(body);
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
  return (
    <section className="merge-editor" aria-labelledby="hand-merge-title" data-testid="hand-merge">
      <h3 id="hand-merge-title">
        <WithNoteId sentence={(id) => t('syncUi.mergeTitle', { id })} id={props.id} />
      </h3>
      <p className="muted">{t('syncUi.mergeHint')}</p>
      <div className="fields">
        <label htmlFor="merge-summary">{t('syncUi.summary')}</label>
        <input
          id="merge-summary"
          value={summary}
          onChange={(e) => setSummary(e.target.value)}
          data-testid="merge-summary"
        />
        <label htmlFor="merge-type">{t('syncUi.type')}</label>
        <select id="merge-type" value={type} onChange={(e) => setType(e.target.value as NoteType | '')}>
          <option value="">{t('syncUi.noType')}</option>
          {NOTE_TYPES.map((nt) => (
            <option key={nt} value={nt}>
              {t(`types.${nt}`)}
            </option>
          ))}
        </select>
        <label htmlFor="merge-tags">{t('syncUi.tags')}</label>
        <input
          id="merge-tags"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          data-testid="merge-tags"
        />
        {/* Not a <label>: the text editor is not a form control; labelled by name for screen readers. */}
        <span className="merge-body-label">{t('syncUi.body')}</span>
        <MergeTextEditor
          docKey={props.conflictKey}
          value={body}
          onChange={setBody}
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
        <button type="button" onClick={props.onCancel} data-testid="merge-cancel">
          {t('syncUi.cancel')}
        </button>
      </div>
    </section>
  );
}
