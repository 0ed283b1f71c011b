import { useMemo } from 'react';
import DiffMatchPatch from 'diff-match-patch';
import { useTranslation } from 'react-i18next';
import type { NoteDetail } from '../../../shared/api/notes.js';
import { Dialog } from '../../components/Dialog.js';
import { editorStore, fieldsOf, type DraftFields } from '../../state/editor-store.js';

type Line = { text: string; changed: boolean };

/** Line-level differences of two texts, each side marked where it differs from the other. */
export function diffLines(a: string, b: string): { left: Line[]; right: Line[] } {
  const dmp = new DiffMatchPatch();
  const { chars1, chars2, lineArray } = dmp.diff_linesToChars_(a, b);
  const diffs = dmp.diff_main(chars1, chars2, false);
  dmp.diff_charsToLines_(diffs, lineArray);
  const left: Line[] = [];
  const right: Line[] = [];
  for (const [op, text] of diffs) {
    const lines = text.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      if (op <= 0) left.push({ text: line, changed: op < 0 });
      if (op >= 0) right.push({ text: line, changed: op > 0 });
    }
  }
  return { left, right };
}

function Side(props: {
  title: string;
  fields: DraftFields;
  lines: Line[];
  other: DraftFields;
  testId: string;
}) {
  const { t } = useTranslation();
  const f = props.fields;
  const o = props.other;
  return (
    <section className="compare-side" aria-label={props.title} data-testid={props.testId}>
      <h3>{props.title}</h3>
      <dl>
        <dt>{t('note.summary')}</dt>
        <dd className={f.summary !== o.summary ? 'changed' : ''}>{f.summary}</dd>
        <dt>{t('note.type')}</dt>
        <dd className={f.type !== o.type ? 'changed' : ''}>
          {f.type ? t(`types.${f.type}`) : t('types.none')}
        </dd>
        <dt>{t('note.tags')}</dt>
        <dd className={f.tags !== o.tags ? 'changed' : ''}>{f.tags}</dd>
      </dl>
      <pre className="compare-body">
        {props.lines.map((l, i) => (
          <div key={i} className={l.changed ? 'line changed' : 'line'}>
            {l.text || ' '}
          </div>
        ))}
      </pre>
    </section>
  );
}

/** An edit on disk met unsaved changes: show both and let the person choose; nothing is overwritten silently. */
export function ConflictDialog(props: {
  mine: DraftFields;
  disk: NoteDetail;
  onClose: () => void;
  onKeepMine: () => void;
}) {
  const { t } = useTranslation();
  const diskFields = fieldsOf(props.disk);
  const { left, right } = useMemo(
    () => diffLines(props.mine.body, diskFields.body),
    [props.mine.body, diskFields.body],
  );
  return (
    <Dialog
      title={t('conflict.title')}
      wide
      onCancel={props.onClose}
      dismissLabel={t('conflict.later')}
      testId="conflict-dialog"
      actions={
        <>
          <button
            type="button"
            onClick={() => {
              editorStore.getState().takeDisk();
              props.onClose();
            }}
            data-testid="take-disk"
          >
            {t('conflict.takeDisk')}
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              editorStore.getState().keepMine();
              props.onClose();
              props.onKeepMine();
            }}
            data-testid="keep-mine"
          >
            {t('conflict.keepMine')}
          </button>
        </>
      }
    >
      <div className="compare">
        <Side
          title={t('conflict.mine')}
          fields={props.mine}
          other={diskFields}
          lines={left}
          testId="compare-mine"
        />
        <Side
          title={t('conflict.disk')}
          fields={diskFields}
          other={props.mine}
          lines={right}
          testId="compare-disk"
        />
      </div>
    </Dialog>
  );
}
