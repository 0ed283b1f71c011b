import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.js';
import { useConfirm } from '../../components/Dialog.js';
import { draftStore, syncMergeKey, useDrafts } from '../../state/draft-store.js';
import { showToast } from '../../state/toast-store.js';
import {
  afterResolving,
  conflictStore,
  following,
  sameConflict,
  useConflictUi,
  type ConflictRef,
} from '../../sync/conflict-store.js';
import { useConflictList, useSyncMutation } from '../../sync/hooks.js';
import { ThreePane } from './ThreePane.js';
import '../../sync/sync.css';

// CodeMirror loads on first use, like the Memory page's editor.
const HandMerge = lazy(() => import('./HandMerge.js').then((m) => ({ default: m.HandMerge })));

/** The three whole-note resolutions, in the order of their buttons. */
const KEEPS = ['local', 'cloud', 'both'] as const;
const KEEP_LABELS = {
  local: 'syncUi.keepLocal',
  cloud: 'syncUi.keepCloud',
  both: 'syncUi.keepBoth',
} as const;

/**
 * Sync conflicts: the list (both scopes, kept across restarts by the engine), the three-pane view
 * of the selected one — last synced / this computer / cloud — and the four resolutions. Resolving
 * one moves on to the next, so the person keeps their place.
 */
export function ConflictsPage() {
  const { t } = useTranslation();
  const list = useConflictList();
  const conflicts = useMemo(() => list.data?.conflicts ?? [], [list.data]);
  const refs: ConflictRef[] = useMemo(
    () => conflicts.map((c) => ({ id: c.id, scope: c.scope })),
    [conflicts],
  );
  const selected = useConflictUi((s) => s.selected);
  const current = refs.find((r) => sameConflict(r, selected)) ?? refs[0] ?? null;

  useEffect(() => {
    if (!sameConflict(current, selected) && (current || selected)) conflictStore.getState().select(current);
  }, [current, selected]);

  function onListKey(e: React.KeyboardEvent) {
    if (refs.length === 0) return;
    const i = current ? refs.findIndex((r) => sameConflict(r, current)) : -1;
    let next = -1;
    if (e.key === 'ArrowDown') next = Math.min(i + 1, refs.length - 1);
    if (e.key === 'ArrowUp') next = Math.max(i - 1, 0);
    if (e.key === 'Home') next = 0;
    if (e.key === 'End') next = refs.length - 1;
    if (next >= 0) {
      e.preventDefault();
      conflictStore.getState().select(refs[next]!);
    }
  }

  if (list.isPending) return <div className="page" aria-busy="true" />;
  if (conflicts.length === 0)
    return (
      <div className="page" data-testid="conflicts-page">
        <h2>{t('syncUi.conflictsTitle')}</h2>
        <p className="muted" data-testid="conflicts-empty">
          {t('syncUi.noConflicts')}
        </p>
      </div>
    );
  const activeId = current ? `conflict-${current.scope}-${current.id}` : undefined;
  return (
    <div className="page conflicts-page" data-testid="conflicts-page">
      <ul
        className="conflict-list"
        role="listbox"
        aria-label={t('syncUi.conflictList')}
        tabIndex={0}
        aria-activedescendant={activeId}
        onKeyDown={onListKey}
        data-testid="conflict-list"
      >
        {conflicts.map((c) => {
          const ref = { id: c.id, scope: c.scope };
          const isSel = sameConflict(ref, current);
          return (
            <li
              key={`${c.scope}:${c.id}`}
              id={`conflict-${c.scope}-${c.id}`}
              role="option"
              aria-selected={isSel}
              onClick={() => conflictStore.getState().select(ref)}
              data-conflict-id={c.id}
            >
              <span translate="no">{c.id}</span>
              <span className="kind-tag">
                {t(`syncUi.scope.${c.scope}`)} · {t(`syncUi.kinds.${c.kind}`)}
              </span>
            </li>
          );
        })}
      </ul>
      {current ? (
        <ConflictDetail key={`${current.scope}:${current.id}`} current={current} refs={refs} />
      ) : null}
    </div>
  );
}

function ConflictDetail({ current, refs }: { current: ConflictRef; refs: ConflictRef[] }) {
  const { t } = useTranslation();
  const detail = useApiQuery('sync.conflict', { id: current.id, scope: current.scope }, { staleTime: 5_000 });
  const resolve = useSyncMutation('sync.resolve');
  const merging = useConflictUi((s) => s.merging);
  const draftKey = syncMergeKey(current.scope, current.id);
  const keptDraft = useDrafts((s) => s.merges[draftKey] !== undefined);
  const d = detail.data;

  function done(newId?: string) {
    draftStore.getState().dropMerge(draftKey);
    showToast({
      tone: 'info',
      message: newId
        ? { key: 'syncUi.keepBothToast', params: { id: current.id, newId } }
        : { key: 'syncUi.resolvedToast', params: { id: current.id } },
    });
    conflictStore.getState().select(afterResolving(refs, current));
  }

  function run(input: Parameters<typeof resolve.mutate>[0]) {
    resolve.mutate(input, {
      onSuccess: (r) => done(r.newId),
      onError: (err) => showToast({ tone: 'error', message: { error: err } }),
    });
  }
  // A resolution other than the hand merge, held until the person agrees to drop their draft.
  const overDraft = useConfirm(run);

  /** Keep this computer's / the cloud's / both: asks first when a hand-merge draft is kept. */
  function choose(input: Parameters<typeof resolve.mutate>[0]) {
    if (keptDraft) overDraft.ask(input);
    else run(input);
  }

  return (
    <div className="conflict-detail" data-testid="conflict-detail" data-conflict-id={current.id}>
      <h2>
        <span translate="no">{current.id}</span>{' '}
        <span className="kind-tag">{t(`syncUi.scope.${current.scope}`)}</span>
      </h2>
      {detail.error ? (
        <p className="error" role="alert">
          {detail.error.message}
        </p>
      ) : null}
      {d ? (
        <>
          <p data-testid="conflict-message">
            {t('syncUi.conflictMessage', { message: d.message, kind: t(`syncUi.kinds.${d.kind}`) })}
          </p>
          {d.reasons.length > 0 ? (
            <p className="muted" data-testid="conflict-reasons">
              {t('syncUi.reasons', {
                fields: d.reasons
                  .map((r) => t(`syncUi.reasonNames.${r}`, { defaultValue: r }))
                  .join(t('syncUi.listSeparator')),
              })}
            </p>
          ) : null}
          <div className="conflict-actions" role="toolbar" aria-label={t('syncUi.conflictsTitle')}>
            {KEEPS.map((keep) => (
              <button
                key={keep}
                type="button"
                disabled={resolve.isPending}
                onClick={() => choose({ ...current, keep })}
                data-testid={`resolve-${keep}`}
              >
                {t(KEEP_LABELS[keep])}
              </button>
            ))}
            <button
              type="button"
              disabled={resolve.isPending}
              aria-pressed={merging}
              onClick={() => conflictStore.getState().setMerging(!merging)}
              data-testid="resolve-merge"
            >
              {t('syncUi.mergeByHand')}
            </button>
            <button
              type="button"
              disabled={refs.length < 2}
              onClick={() => conflictStore.getState().select(following(refs, current))}
              data-testid="conflict-next"
            >
              {t('syncUi.next')}
            </button>
          </div>
          <p className="muted">
            {t('syncUi.changedHint')} {t('syncUi.setAside')}
          </p>
          {keptDraft && !merging ? (
            <p className="notice" data-testid="conflict-draft-waiting">
              {t('syncUi.keptDraftWaiting')}
            </p>
          ) : null}
          {merging ? (
            <Suspense fallback={<div aria-busy="true" />}>
              <HandMerge
                draftKey={draftKey}
                id={current.id}
                seed={d.draft}
                saving={resolve.isPending}
                onSave={(merged) => run({ ...current, merged })}
                onClose={() => conflictStore.getState().setMerging(false)}
              />
            </Suspense>
          ) : null}
          {overDraft.dialog({
            title: t('syncUi.resolveOverDraftTitle'),
            body: t('syncUi.resolveOverDraftBody'),
            confirmLabel: t('syncUi.resolveOverDraft'),
            danger: true,
          })}
          <ThreePane base={d.base} local={d.local} cloud={d.cloud} />
        </>
      ) : (
        <div aria-busy="true" />
      )}
    </div>
  );
}

/** The conflict count on the tab; null hides it. */
export function useConflictsBadge(): number | null {
  const list = useConflictList();
  const n = list.data?.conflicts.length ?? 0;
  return n > 0 ? n : null;
}
