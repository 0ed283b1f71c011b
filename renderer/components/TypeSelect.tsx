import { useTranslation } from 'react-i18next';
import { NOTE_TYPES, type NoteType } from '../../shared/note.js';

/** The note type picker of the editor, the new-note form and the hand merge: the four types, or none. */
export function TypeSelect(props: {
  value: NoteType | '';
  onChange: (type: NoteType | '') => void;
  testId?: string;
  /** For a <label htmlFor> beside it (the hand merge's grid). */
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <select
      id={props.id}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as NoteType | '')}
      data-testid={props.testId}
    >
      <option value="">{t('types.none')}</option>
      {NOTE_TYPES.map((ty) => (
        <option key={ty} value={ty}>
          {t(`types.${ty}`)}
        </option>
      ))}
    </select>
  );
}
