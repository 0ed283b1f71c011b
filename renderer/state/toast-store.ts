import { createStore, useStore } from 'zustand';

/**
 * What a toast says, kept as what to say rather than as words, so that it is worded in the
 * language shown now — also after the person switches language while it is up (Toasts.tsx).
 */
export type ToastWords =
  /** A key of the string tables (renderer/i18n) and its values. */
  | { key: string; params?: Record<string, string | number | ToastWords> }
  /** An error, put into words by describeError when drawn. */
  | { error: unknown }
  /** Words that are not ours to translate (a sync server's message), shown as they came. */
  | { text: string };

/** Short messages at the bottom of the page, optionally with one action (e.g. Undo). */
export interface Toast {
  id: number;
  /** Several pieces are shown one after another, a space apart. */
  message: ToastWords | ToastWords[];
  tone: 'info' | 'error';
  /** The note the toast is about (its summary or id), shown after the message as the person wrote it. */
  subject?: string;
  action?: { label: ToastWords; run: () => void | Promise<void> };
  /**
   * What the toast is about (e.g. `save:project:id`): a newer toast with the same key replaces it,
   * and `dismissKey` removes it once its cause is gone (the save that failed went through).
   */
  key?: string;
  /** Auto-dismiss after this long; default 6 s, 20 s with an action (undo), errors stay until closed. */
  timeoutMs?: number | null;
}

export interface ToastState {
  toasts: Toast[];
  show(t: Omit<Toast, 'id'>): number;
  dismiss(id: number): void;
  dismissKey(key: string): void;
}

let nextId = 1;

export function createToastStore() {
  return createStore<ToastState>()((set, get) => ({
    toasts: [],
    show(t) {
      const id = nextId++;
      // Keep the last few: an old undo offer stays until dismissed or replaced.
      set((s) => {
        const others = t.key === undefined ? s.toasts : s.toasts.filter((o) => o.key !== t.key);
        return { toasts: [...others.slice(-3), { ...t, id }] };
      });
      const timeout =
        t.timeoutMs !== undefined ? t.timeoutMs : t.tone === 'error' ? null : t.action ? 20_000 : 6_000;
      if (timeout !== null) setTimeout(() => get().dismiss(id), timeout);
      return id;
    },
    dismiss(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
    dismissKey(key) {
      if (get().toasts.some((t) => t.key === key))
        set((s) => ({ toasts: s.toasts.filter((t) => t.key !== key) }));
    },
  }));
}

export const toastStore = createToastStore();
export const showToast = (t: Omit<Toast, 'id'>) => toastStore.getState().show(t);
export function useToasts(): Toast[] {
  return useStore(toastStore, (s) => s.toasts);
}
