import { app, type BrowserWindow } from 'electron';
import type { AppEvent } from '../../shared/events.js';
import type { ApiHandlers } from '../api/dispatch.js';
import type { AppRoot } from '../app/app-root.js';
import { showConflictBadge } from './sync-badge.js';
import { ConflictNotifier } from './sync-notify.js';

/**
 * The desktop app's side of sync: conflicts announced (OS notification, badge) after each round,
 * and a stop on quit that never hangs. The engine itself (one coordinator, started with the app,
 * every open core attached and kept in use by its writes) is the composition root's.
 */
export interface DesktopSync {
  /** Every app event passes through here before it reaches the window. */
  onEvent(event: AppEvent): void;
  /** After a core was opened (start, another project): refresh the badge. */
  coreOpened(): void;
  stop(): Promise<void>;
}

export function startDesktopSync(opts: {
  root: AppRoot;
  handlers: () => ApiHandlers;
  window: () => BrowserWindow | null;
  openConflicts: () => void;
}): DesktopSync {
  const notifier = new ConflictNotifier({ locale: () => app.getLocale(), onClick: opts.openConflicts });
  let stopped = false;

  async function refresh(): Promise<void> {
    if (stopped) return;
    try {
      const { conflicts } = await opts.handlers()['sync.conflicts']({});
      notifier.update(conflicts);
      showConflictBadge(conflicts.length, opts.window());
    } catch {
      // The core is being swapped or closed: the next round's event refreshes again.
    }
  }

  return {
    onEvent(event) {
      if (event.type === 'sync.status') void refresh();
    },
    coreOpened() {
      void refresh();
    },
    async stop() {
      stopped = true;
      showConflictBadge(0, opts.window());
      // Rounds stop at the abort; should one not (a lock held elsewhere), quit anyway after 5 s —
      // every write is atomic, so a round cut short leaves nothing half-written.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        opts.root.stop(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
