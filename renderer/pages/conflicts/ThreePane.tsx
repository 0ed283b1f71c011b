import { useTranslation } from 'react-i18next';
import type { Note } from '../../../shared/note.js';
import { baseLines, linesAgainstBase, type DiffLine } from '../../sync/diff.js';

/** Last synced / this computer / cloud, side by side, each marked where it differs from the last synced. */
export function ThreePane({
  base,
  local,
  cloud,
}: {
  base: Note | null;
  local: Note | null;
  cloud: Note | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="three-pane" data-testid="three-pane">
      <Pane
        title={t('syncUi.base')}
        testId="pane-base"
        note={base}
        base={null}
        lines={base ? baseLines(base.body, [local?.body ?? null, cloud?.body ?? null]) : []}
        missing={t('syncUi.absent')}
      />
      <SidePane title={t('syncUi.local')} testId="pane-local" note={local} base={base} />
      <SidePane title={t('syncUi.cloud')} testId="pane-cloud" note={cloud} base={base} />
    </div>
  );
}

/** One side of the conflict (this computer or the cloud), marked where it differs from the last synced. */
function SidePane(props: { title: string; testId: string; note: Note | null; base: Note | null }) {
  const { t } = useTranslation();
  const { note, base } = props;
  const lines = note ? linesAgainstBase(base?.body ?? null, note.body) : [];
  return <Pane {...props} lines={lines} missing={t('syncUi.deleted')} />;
}

function Pane(props: {
  title: string;
  testId: string;
  note: Note | null;
  base: Note | null;
  lines: DiffLine[];
  missing: string;
}) {
  const { t } = useTranslation();
  const { note, base } = props;
  const differs = (a: unknown, b: unknown) => base !== null && JSON.stringify(a) !== JSON.stringify(b);
  return (
    <section className="pane" aria-label={props.title} data-testid={props.testId}>
      <h3>{props.title}</h3>
      {note ? (
        <>
          <dl>
            <dt>{t('syncUi.summary')}</dt>
            <dd className={differs(note.summary, base?.summary) ? 'changed' : ''} translate="no">
              {note.summary}
            </dd>
            <dt>{t('syncUi.type')}</dt>
            <dd className={differs(note.type ?? null, base?.type ?? null) ? 'changed' : ''}>
              {note.type ? t(`types.${note.type}`) : t('syncUi.noType')}
            </dd>
            <dt>{t('syncUi.tags')}</dt>
            <dd
              className={differs([...note.tags].sort(), [...(base?.tags ?? [])].sort()) ? 'changed' : ''}
              translate="no"
            >
              {note.tags.join(', ') || '—'}
            </dd>
          </dl>
          <pre
            className="pane-body"
            translate="no"
            aria-label={`${props.title}: ${t('syncUi.body')}`}
            data-testid={`${props.testId}-body`}
          >
            {props.lines.map((l, i) => (
              <span key={i} className={l.kind === 'same' ? 'line' : `line ${l.kind}`} data-kind={l.kind}>
                {l.kind === 'removed' ? <span className="sr-only">− </span> : null}
                {l.kind === 'changed' ? <span className="sr-only">+ </span> : null}
                {l.text || ' '}
              </span>
            ))}
          </pre>
        </>
      ) : (
        <p className="muted">{props.missing}</p>
      )}
    </section>
  );
}
