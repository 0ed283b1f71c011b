import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeferredApiQuery } from '../../api/queries.js';
import { TabLink } from '../../components/TabLink.js';

/**
 * What the editor pane shows with no note open — the first thing a newcomer sees: what the app is
 * for, where the notes live, that agents write them, and what to do next. Memoised: the Memory
 * page redraws at every key typed in its search, this pane need not.
 */
export const Welcome = memo(function Welcome(props: {
  /** null while the list is still on its way: "no notes yet" would be a guess. */
  noteCount: number | null;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const status = useDeferredApiQuery('app.status', {});
  const s = status.data;
  // Until app.status answers, where the notes live is not known: saying "no project folder is
  // open" then would tell a newcomer something false.
  const loading = <span className="muted">{t('welcome.loading')}</span>;
  // Whether the section is registered (app/tabs.tsx imports this page, so it is not imported back):
  // its tab button is drawn before any panel.
  const hasTab = (id: string) => document.getElementById(`tab-${id}`) !== null;
  return (
    <div className="welcome" data-testid="welcome">
      <h2>{t('welcome.title')}</h2>
      <p>{t('welcome.purpose')}</p>
      <p>{t('welcome.agents')}</p>
      <h3>{t('welcome.whereTitle')}</h3>
      <dl className="welcome-paths" translate="no">
        <dt>{t('welcome.projectNotes')}</dt>
        <dd>
          {!s ? (
            loading
          ) : s.project ? (
            <code data-testid="welcome-project-dir">{s.project.memoryDir}</code>
          ) : (
            <span className="muted">{t('welcome.noProject')}</span>
          )}
        </dd>
        <dt>{t('welcome.userNotes')}</dt>
        <dd>
          {!s ? (
            loading
          ) : s.userDir ? (
            <code data-testid="welcome-user-dir">{s.userDir}</code>
          ) : (
            <span className="muted">{t('welcome.noUserDir')}</span>
          )}
        </dd>
      </dl>
      <p className="muted">{t('welcome.files')}</p>
      <h3>{t('welcome.nextTitle')}</h3>
      <ol className="welcome-steps">
        {s && !s.project ? <li>{t('welcome.openProject')}</li> : null}
        {hasTab('agents') ? (
          <li>
            <TabLink tab="agents">{t('welcome.connectAgent')}</TabLink>
          </li>
        ) : (
          <li>{t('welcome.connectAgentHint')}</li>
        )}
        <li>
          <TabLink tab="sync" testId="welcome-sync">
            {t('welcome.turnOnSync')}
          </TabLink>
        </li>
        <li>
          <button type="button" className="link" onClick={props.onNew} data-testid="welcome-new">
            {t('welcome.writeOne')}
          </button>
        </li>
      </ol>
      <p className="muted" data-testid="welcome-notes">
        {props.noteCount === null
          ? t('list.loading')
          : props.noteCount > 0
            ? t('note.nothingSelected')
            : t('welcome.empty')}
      </p>
      <p className="muted welcome-keys">{t('welcome.keys')}</p>
    </div>
  );
});
