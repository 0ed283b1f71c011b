import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { SyncStatus } from '../../shared/api/sync.js';
import { SyncStatusCodeSchema } from '../../shared/sync-status.js';
import { useDeferredApiQuery } from '../api/queries.js';
import { mergeWarnings } from '../components/WarningsBar.js';
import { formatTime } from '../sync/format.js';
import { useConflictList, useSyncRunning, useSyncStatus } from '../sync/hooks.js';
import { useRoundToast } from '../sync/useRoundToast.js';
import { UnexpectedErrorsItem } from './UnexpectedErrors.js';
import { uiStore, useUi } from '../state/ui-store.js';

/** What the sync state is, in one word the status bar shows. */
export function syncStateKey(s: SyncStatus | undefined, running: boolean): string {
  if (!s) return 'status.syncUnknown';
  if (running) return 'status.syncing';
  if (!s.enabled) return 'status.syncOff';
  if (!s.signedIn) return 'status.signedOut';
  if (s.scopes.some((sc) => sc.error && sc.error.code !== SyncStatusCodeSchema.enum.signed_out))
    return 'status.syncError';
  return 'status.syncOn';
}

/**
 * The status bar under every page (as Obsidian's): sync state, last synced, notes to upload,
 * conflicts, warnings, errors nobody expected (with where they are logged),
 * and whether Tab moves focus out of the text editor (Ctrl+M toggles it, as in VS Code).
 */
export function StatusBar() {
  const { t, i18n } = useTranslation();
  const sync = useSyncStatus();
  const running = useSyncRunning();
  const conflicts = useConflictList().data?.conflicts.length ?? 0;
  const status = useDeferredApiQuery('app.status', {});
  const warnings = mergeWarnings(status.data?.warnings).length;
  const tabMovesFocus = useUi((s) => s.tabMovesFocus);
  // Only where sync runs: signed out or off, nothing is "to upload".
  const toUpload =
    sync.data?.enabled && sync.data.signedIn
      ? sync.data.scopes.reduce((n, sc) => n + sc.pendingUploads, 0)
      : 0;
  // Mounted on every page, as the status bar is: background rounds are announced wherever one works.
  useRoundToast();

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (
        !e.defaultPrevented &&
        e.ctrlKey &&
        !e.metaKey &&
        !e.altKey &&
        !e.shiftKey &&
        e.key.toLowerCase() === 'm'
      ) {
        e.preventDefault();
        uiStore.getState().setTabMovesFocus(!uiStore.getState().tabMovesFocus);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const last = formatTime(sync.data?.lastSyncedAt ?? null, i18n.language);
  const openTab = (tab: string) => uiStore.getState().setActiveTab(tab);
  return (
    <footer className="status-bar" aria-label={t('status.label')} data-testid="status-bar">
      <button type="button" className="status-item" onClick={() => openTab('sync')} data-testid="status-sync">
        {t(syncStateKey(sync.data, running))}
      </button>
      <span className="status-item" data-testid="status-last-synced">
        {t('status.lastSynced', { when: last ?? t('status.never') })}
      </span>
      <CountItem counted="toUpload" count={toUpload} onClick={() => openTab('sync')} />
      <CountItem counted="conflicts" count={conflicts} onClick={() => openTab('conflicts')} />
      <CountItem counted="warnings" count={warnings} onClick={() => uiStore.getState().hideWarnings([])} />
      <UnexpectedErrorsItem app={status.data?.unexpectedErrors} />
      <span className="status-spacer" />
      <button
        type="button"
        className={tabMovesFocus ? 'status-item status-on' : 'status-item'}
        aria-pressed={tabMovesFocus}
        aria-keyshortcuts="Control+M"
        title={t('status.tabFocusHint')}
        onClick={() => uiStore.getState().setTabMovesFocus(!tabMovesFocus)}
        data-testid="status-tab-focus"
      >
        {tabMovesFocus ? t('status.tabMovesFocus') : t('status.tabIndents')}
      </button>
    </footer>
  );
}

/** The things the status bar counts: the words of the count, the item's look and its test id. */
const COUNTED = {
  toUpload: { text: 'status.toUpload', tone: null, testId: 'status-to-upload' },
  conflicts: { text: 'status.conflicts', tone: 'status-alert', testId: 'status-conflicts' },
  warnings: { text: 'status.warnings', tone: 'status-warn', testId: 'status-warnings' },
} as const;

/** An item that counts something to look at (clicking it goes there); absent while there is none. */
function CountItem(props: { counted: keyof typeof COUNTED; count: number; onClick: () => void }) {
  const { t } = useTranslation();
  if (props.count <= 0) return null;
  const { text, tone, testId } = COUNTED[props.counted];
  return (
    <button
      type="button"
      className={tone ? `status-item ${tone}` : 'status-item'}
      onClick={props.onClick}
      data-testid={testId}
    >
      {t(text, { count: props.count })}
    </button>
  );
}
