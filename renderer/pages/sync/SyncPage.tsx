import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScopeSyncStatus, SyncNowOutput, SyncStatus } from '../../../shared/api/sync.js';
import { SyncStatusCodeSchema } from '../../../shared/sync-status.js';
import { registerCommand } from '../../app/commands.js';
import { TabLink } from '../../components/TabLink.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { formatBytes, formatClock, formatTime } from '../../sync/format.js';
import {
  useProjectActivity,
  useSigningIn,
  useSyncMutation,
  useSyncRunning,
  useSyncStatus,
} from '../../sync/hooks.js';
import { BrowserSignIn } from '../../sync/BrowserSignIn.js';
import { DevicesList } from '../../sync/DevicesList.js';
import { SyncCard } from '../../sync/SyncCard.js';
import { EncryptionNotice, EncryptionSection } from '../../sync/EncryptionSection.js';
import '../../sync/sync.css';

const Code = SyncStatusCodeSchema.enum;

/**
 * The sync panel (R-SYNC-UI): 关闭云同步, 立即同步, "last synced" (the older of the two scopes),
 * errors naming their scope, the last pull, plan limits on a free plan, the 429 message, sign in /
 * sign out, and whether sync is end-to-end encrypted (with turning it on, unlocking and the passphrase).
 */
export function SyncPage() {
  const { t } = useTranslation();
  const status = useSyncStatus();
  const s = status.data;
  return (
    <div className="page sync-page" data-testid="sync-page">
      <h2>{t('syncUi.title')}</h2>
      {s ? <EncryptionNotice paused={s.signedIn && !s.enabled} /> : null}
      {status.error ? (
        <p className="error" role="alert">
          {t('errors.generic', { message: status.error.message })}
        </p>
      ) : null}
      {s ? (
        <>
          <AccountSection status={s} />
          {/* Like the devices list: with sync off, nothing asks the server. */}
          {s.signedIn && s.enabled ? <EncryptionSection /> : null}
          <ToggleSection status={s} />
          <SummarySection status={s} />
          <ScopesSection status={s} />
        </>
      ) : null}
    </div>
  );
}

function AccountSection({ status }: { status: SyncStatus }) {
  const { t } = useTranslation();
  const logout = useSyncMutation('sync.logout');
  const signingIn = useSigningIn();
  // Mid sign-in the status may already say signed in: the form (and its answer) stays until it ends.
  const signedIn = status.signedIn && !signingIn;
  return (
    <SyncCard headingId="sync-account-h" heading={t('syncUi.account')}>
      {signedIn ? (
        <div className="sync-row">
          <span data-testid="sync-signed-in">{t('syncUi.signedInAs', { origin: status.origin ?? '' })}</span>
          <button
            type="button"
            onClick={() =>
              logout.mutate(
                {},
                { onSuccess: () => showToast({ tone: 'info', message: { key: 'syncUi.signedOutToast' } }) },
              )
            }
            disabled={logout.isPending}
            data-testid="sync-signout"
          >
            {t('syncUi.signOut')}
          </button>
        </div>
      ) : null}
      {/* With sync off no request goes to the server, not even for the list of devices. */}
      {signedIn ? (
        status.enabled ? (
          <DevicesList />
        ) : null
      ) : (
        <>
          <p className="muted" data-testid="sync-signed-out">
            {t('syncUi.signedOut')}
          </p>
          <BrowserSignIn />
        </>
      )}
    </SyncCard>
  );
}

function ToggleSection({ status }: { status: SyncStatus }) {
  const { t } = useTranslation();
  const setEnabled = useSyncMutation('sync.setEnabled');
  const running = useSyncRunning();
  const syncNow = useSyncNowAction();
  const on = status.enabled;
  return (
    <SyncCard headingId="sync-toggle-h" heading={t('syncUi.title')} headingHidden>
      <div className="sync-row">
        <button
          type="button"
          role="switch"
          aria-checked={on}
          className={on ? 'sync-switch on' : 'sync-switch'}
          disabled={setEnabled.isPending}
          onClick={() => setEnabled.mutate({ enabled: !on })}
          data-testid="sync-toggle"
        >
          <span className="sync-switch-knob" aria-hidden="true" />
          {/* One label; the switch's state says on or off (a label that flips reads as an action). */}
          <span>{t('syncUi.switchLabel')}</span>
        </button>
        <strong data-testid="sync-state">
          {!on ? t('syncUi.off') : status.signedIn ? t('syncUi.on') : t('syncUi.onSignedOut')}
        </strong>
        <button
          type="button"
          className="primary"
          onClick={syncNow}
          disabled={running || !on || !status.signedIn}
          data-testid="sync-now"
        >
          {t('syncUi.syncNow')}
        </button>
      </div>
      {!on ? <p className="muted">{t('syncUi.offHint')}</p> : null}
      {running ? (
        <div className="sync-progress" role="status" data-testid="sync-progress">
          <div className="sync-progress-bar" role="progressbar" aria-label={t('syncUi.syncing')} />
          <span>{t('syncUi.syncing')}</span>
        </div>
      ) : null}
    </SyncCard>
  );
}

function SummarySection({ status }: { status: SyncStatus }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const limited = status.scopes.find((sc) => sc.error?.code === Code.rate_limited);
  const paused = status.scopes.map((sc) => sc.pausedUntil).find((p) => p !== null) ?? null;
  const free = status.scopes.find((sc) => sc.plan?.name === 'free')?.plan;
  const paid = status.scopes.some((sc) => sc.plan?.name === 'paid');
  const conflicts = status.scopes.reduce((n, sc) => n + sc.conflicts.length, 0);
  // Signed out is said once, in the account section; a 429 has its own line below.
  const errors = status.scopes.filter(
    (sc) =>
      sc.error &&
      sc.error.code !== Code.rate_limited &&
      !(sc.error.code === Code.signed_out && !status.signedIn),
  );
  return (
    <SyncCard headingId="sync-summary-h" heading={t('syncUi.lastSynced')} headingHidden>
      <dl className="sync-facts">
        <dt>{t('syncUi.lastSynced')}</dt>
        <dd data-testid="sync-last-synced">
          {formatTime(status.lastSyncedAt, lang) ?? t('syncUi.never')}{' '}
          <span className="muted">({t('syncUi.lastSyncedHint')})</span>
        </dd>
      </dl>
      {limited || paused ? (
        <p className="sync-banner sync-banner-warn" role="status" data-testid="sync-rate-limited">
          {t('syncUi.rateLimited', {
            when: paused ? t('syncUi.retryAt', { time: formatClock(paused, lang) }) : '',
          })}
        </p>
      ) : null}
      {errors.map((sc) => (
        <p
          key={sc.scope}
          className="sync-banner sync-banner-error"
          role="alert"
          data-testid={`sync-error-${sc.scope}`}
        >
          {sc.error!.message}
        </p>
      ))}
      {free ? (
        <p className="sync-plan" data-testid="sync-plan-free">
          {t('syncUi.freePlan', {
            notes: free.notesPerScope ?? t('syncUi.unlimited'),
            size: free.noteBytes !== null ? formatBytes(free.noteBytes) : t('syncUi.unlimited'),
          })}
        </p>
      ) : paid ? (
        <p className="sync-plan muted" data-testid="sync-plan-paid">
          {t('syncUi.paidPlan')}
        </p>
      ) : null}
      {conflicts > 0 ? (
        <p>
          <TabLink tab="conflicts" testId="sync-conflicts-link">
            {t('syncUi.conflictsLink', { count: conflicts })}
          </TabLink>
        </p>
      ) : null}
    </SyncCard>
  );
}

function ScopesSection({ status }: { status: SyncStatus }) {
  const { t } = useTranslation();
  return (
    <SyncCard headingId="sync-scopes-h" heading={t('syncUi.scopes')}>
      <ul className="sync-scopes">
        {status.scopes.map((sc) => (
          <ScopeRow key={sc.scope} scope={sc} />
        ))}
      </ul>
    </SyncCard>
  );
}

/** A list folded under its title and count; absent while empty. */
function FoldedList(props: { title: string; items: Array<{ key: string; text: string }>; testId?: string }) {
  if (props.items.length === 0) return null;
  return (
    <details data-testid={props.testId}>
      <summary>
        {props.title} ({props.items.length})
      </summary>
      <ul>
        {props.items.map((item) => (
          <li key={item.key}>{item.text}</li>
        ))}
      </ul>
    </details>
  );
}

function ScopeRow({ scope: sc }: { scope: ScopeSyncStatus }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const decide = useSyncMutation('sync.now');
  const pull = sc.lastPull;
  // Per-note reasons are listed on their own; the rest of the notices below them.
  const otherNotices = sc.notices.filter((n) => !sc.localOnly.some((l) => l.message === n));
  return (
    <li className="sync-scope" data-testid={`sync-scope-${sc.scope}`}>
      <div className="sync-row">
        <strong>{t(`syncUi.scopeName.${sc.scope}`)}</strong>
        <span className={sc.enabled ? 'sync-pill on' : 'sync-pill'}>
          {sc.enabled ? t('syncUi.scopeOn') : t('syncUi.scopeOff')}
        </span>
        <span className="muted">
          {t('syncUi.lastSynced')}: {formatTime(sc.lastSyncedAt, lang) ?? t('syncUi.never')}
        </span>
      </div>
      {sc.boundTo ? (
        <div className="muted">
          {t('syncUi.boundTo', { user: sc.boundTo.userId, origin: sc.boundTo.origin })}
        </div>
      ) : null}
      <div data-testid={`sync-last-pull-${sc.scope}`}>
        {t('syncUi.lastPull')}:{' '}
        {pull
          ? t('syncUi.lastPullValue', {
              added: pull.added,
              changed: pull.changed,
              deleted: pull.deleted,
              when: formatTime(pull.at, lang),
            })
          : t('syncUi.nothingPulled')}
      </div>
      <FoldedList
        title={t('syncUi.localOnly')}
        items={sc.localOnly.map((l) => ({ key: l.id, text: l.message }))}
        testId={`sync-local-only-${sc.scope}`}
      />
      <FoldedList
        title={t('syncUi.notices')}
        items={otherNotices.map((n, i) => ({ key: String(i), text: n }))}
      />
      <FoldedList
        title={t('syncUi.held')}
        items={sc.held.map((h) => ({ key: h.path, text: h.message }))}
        testId={`sync-held-${sc.scope}`}
      />
      {sc.pendingDeletes ? (
        <div className="sync-banner sync-banner-warn" role="alert">
          {t('syncUi.pendingDeletes', {
            count: sc.pendingDeletes.count,
            total: sc.pendingDeletes.total,
            here: sc.pendingDeletes.here,
          })}{' '}
          <button type="button" onClick={() => decide.mutate({ scope: sc.scope, deletes: 'delete' })}>
            {t('syncUi.deleteThem')}
          </button>{' '}
          <button type="button" onClick={() => decide.mutate({ scope: sc.scope, deletes: 'keep' })}>
            {t('syncUi.keepThem')}
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** 立即同步 from the panel, the header or the menu: one shared mutation, a toast with the result. */
function useSyncNowAction(): () => void {
  const syncNow = useSyncMutation('sync.now');
  return () =>
    syncNow.mutate(
      {},
      {
        onSuccess: (out: SyncNowOutput) => {
          const rounds = Object.values(out.scopes).filter((r) => r !== undefined);
          const failed = rounds.find((r) => r.error);
          if (failed?.error) {
            // The panel shows a 429 and "sync is off" itself: a quiet toast for those.
            const quiet = failed.error.code === Code.rate_limited || failed.error.code === Code.sync_off;
            showToast({
              tone: quiet ? 'info' : 'error',
              message: { text: failed.error.message },
              timeoutMs: 8_000,
            });
            return;
          }
          const sum = (k: 'added' | 'changed' | 'deleted') => rounds.reduce((n, r) => n + r.pulled[k], 0);
          // Conflicts are what the person has to act on: counted, with the way to them.
          const conflicts = rounds.reduce((n, r) => n + r.conflicts.length, 0);
          const done = {
            key: 'syncUi.syncDone',
            params: {
              added: sum('added'),
              changed: sum('changed'),
              deleted: sum('deleted'),
              pushed: rounds.reduce((n, r) => n + r.pushed, 0),
            },
          };
          showToast({
            tone: 'info',
            key: 'sync.done',
            message:
              conflicts > 0 ? [done, { key: 'syncUi.newConflicts', params: { count: conflicts } }] : done,
            ...(conflicts > 0
              ? {
                  action: {
                    label: { key: 'syncUi.openConflicts' },
                    run: () => uiStore.getState().setActiveTab('conflicts'),
                  },
                }
              : {}),
          });
        },
        onError: (err) => showToast({ tone: 'error', message: { error: err }, timeoutMs: 8_000 }),
      },
    );
}

/**
 * Always mounted (in the header): the menu's 立即同步 (⌘/Ctrl+Shift+Y), the "Memory page open"
 * activity signal, the notification's "open the conflicts", and a small progress mark.
 */
export function SyncHeaderSlot() {
  const { t } = useTranslation();
  const run = useSyncNowAction();
  const running = useSyncRunning();
  useProjectActivity();
  useEffect(() => registerCommand('sync.now', run), [run]);
  useEffect(() => registerCommand('conflicts.open', () => uiStore.getState().setActiveTab('conflicts')), []);
  return running ? (
    <span className="sync-header-progress" role="status" data-testid="sync-header-progress">
      {t('syncUi.syncing')}
    </span>
  ) : null;
}
