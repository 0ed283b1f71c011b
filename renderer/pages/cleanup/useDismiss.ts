import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Finding } from '../../../shared/api/cleanup.js';
import { useApiClient } from '../../api/context.js';
import { showToast, toastStore } from '../../state/toast-store.js';
import { invalidateCleanup } from './useFindings.js';

/** Focus in a text field: Ctrl/Cmd+Z there is the field's own undo. */
function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA');
}

/**
 * Dismiss one finding or a group (one call), with Undo: from the toast, or Ctrl/Cmd+Z while the
 * page is open (the last dismissal first). Undo removes the dismissals on disk, so it holds after a
 * reload. `blocked` stops the shortcut while a dialog (the merge editor) has the keyboard.
 */
export function useDismiss(opts: { onError: (message: string | null) => void; blocked: boolean }) {
  const client = useApiClient();
  const qc = useQueryClient();
  const undoStack = useRef<string[][]>([]);
  const { onError, blocked } = opts;

  const undo = useCallback(
    async (ids: string[]) => {
      undoStack.current = undoStack.current.filter((entry) => entry !== ids);
      toastStore.getState().dismissKey(`dismiss:${ids.join('|')}`);
      try {
        await client.call('cleanup.undismiss', { findingIds: ids });
        showToast({ tone: 'info', message: { key: 'cleanupUi.undismissed', params: { count: ids.length } } });
      } catch (err) {
        showToast({ tone: 'error', message: { error: err } });
      } finally {
        invalidateCleanup(qc);
      }
    },
    [client, qc],
  );

  const dismiss = useCallback(
    async (list: Finding[], subject?: string) => {
      onError(null);
      const ids = list.map((x) => x.id);
      try {
        await client.call('cleanup.dismissMany', { findingIds: ids });
        undoStack.current.push(ids);
        showToast({
          tone: 'info',
          key: `dismiss:${ids.join('|')}`,
          ...(subject !== undefined && ids.length === 1
            ? { message: { key: 'cleanupUi.dismissedOne' }, subject }
            : { message: { key: 'cleanupUi.dismissed', params: { count: ids.length } } }),
          action: { label: { key: 'cleanupUi.undoDismiss' }, run: () => undo(ids) },
        });
      } catch (err) {
        onError((err as Error).message);
      } finally {
        invalidateCleanup(qc);
      }
    },
    [client, qc, undo, onError],
  );

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return;
      if (blocked || e.defaultPrevented || typingIn(e.target)) return;
      const last = undoStack.current.at(-1);
      if (!last) return;
      e.preventDefault();
      void undo(last);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [blocked, undo]);

  return dismiss;
}
