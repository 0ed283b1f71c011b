import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../api/describe-error.js';
import { FieldError } from '../../components/FieldError.js';
import { TypeSelect } from '../../components/TypeSelect.js';
import type { DraftFields } from '../../state/draft-store.js';

type Written = Pick<DraftFields, 'summary' | 'type' | 'tags'>;

interface NoteFieldsProps {
  draft: Written;
  /** A method: the editor's and the form's setters take more keys than these three. */
  set<K extends keyof Written>(key: K, value: Written[K]): void;
  fieldErrors: FieldErrors | null;
  idPrefix: '' | 'new-';
  autoFocus?: boolean;
  afterType?: ReactNode;
  after?: ReactNode;
}

/**
 * What a note is written with, above its body — summary, type, tags — each with its visible label
 * and its problem in words under it; shared by the editor and the new-note form (`idPrefix` 'new-'
 * names the form's fields and their errors). `afterType` and `after` place the form's own fields
 * (scope, id) where they belong.
 */
export function NoteFields(props: NoteFieldsProps) {
  const { t } = useTranslation();
  const { draft, set, fieldErrors, idPrefix } = props;
  return (
    <div className="fields">
      <label className="field field-wide">
        <span>{t('note.summary')}</span>
        <input
          value={draft.summary}
          onChange={(e) => set('summary', e.target.value)}
          autoFocus={props.autoFocus}
          aria-invalid={!!fieldErrors?.summary}
          aria-describedby={fieldErrors?.summary ? `${idPrefix}summary-error` : undefined}
          data-testid={`${idPrefix}summary`}
        />
        <FieldError id={`${idPrefix}summary-error`} message={fieldErrors?.summary} />
      </label>
      <label className="field">
        <span>{t('note.type')}</span>
        <TypeSelect value={draft.type} onChange={(v) => set('type', v)} testId={`${idPrefix}type`} />
      </label>
      {props.afterType}
      <label className="field field-wide">
        <span>
          {t('note.tags')} <small className="muted">({t('note.tagsHint')})</small>
        </span>
        <input
          value={draft.tags}
          onChange={(e) => set('tags', e.target.value)}
          data-testid={`${idPrefix}tags`}
        />
      </label>
      {props.after}
    </div>
  );
}
