import { app, type BrowserWindow } from 'electron';
import type { AppEvent } from '../../shared/events.js';
import type { ApiHandlers } from '../api/dispatch.js';
import type { MemoryCore } from '../memory/types.js';
import { startAppSync, type AppSync } from '../sync/app-sync.js';
import type { TokenStore } from '../sync/token-store.js';
import { showConflictBadge } from './sync-badge.js';
import { ConflictNotifier } from './sync-notify.js';

/**
 * The desktop app's sync: the process's one coordinator started with the app, the current core's
 * directories attached (through `sync.markInUse`, which attaches and marks the project in use),
 * a note written in the project keeping it polled, conflicts announced (OS notification, badge),
 * and a clean stop on quit.
 */
export interface DesktopSync {
  /** Every app event passes through here before it reaches the window. */
  onEvent(event: AppEvent): void;
  /** After a core was opened (start, another project): attach it and refresh the badge. */
  coreOpened(): void;
  /** Before a core closes (project switch, quit): release its sync attachments. */
  release(core: MemoryCore): void;
  /** The plan the sync server last announced ('paid' | 'free' | null), for background consolidation. */
  knownPlan(): 'paid' | 'free' | null;
  stop(): Promise<void>;
}

export function startDesktopSync(opts: {
  home: string;
  tokens?: TokenStore;
  keys?: TokenStore;
  handlers: () => ApiHandlers;
  window: () => BrowserWindow | null;
  /** Forward events to the window(s). */
  emit: (event: AppEvent) => void;
  openConflicts: () => void;
}): DesktopSync {
  const sync: AppSync = startAppSync({
    home: opts.home,
    emit: (event) => {
      opts.emit(event);
      if (event.type === 'sync.status') void refresh();
    },
    ...(opts.tokens ? { tokens: opts.tokens } : {}),
    ...(opts.keys ? { keys: opts.keys } : {}),
  });
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

  const touch = (): void => {
    if (stopped) return;
    try {
      const markInUse = opts.handlers()['sync.markInUse'];
      void markInUse({}).catch(() => undefined);
    } catch {
      // No core open yet (or closing): the next open attaches it.
    }
  };

  return {
    onEvent(event) {
      if (event.type === 'notes.changed' && event.scope === 'project') touch();
    },
    release: (core) => sync.release(core),
    knownPlan: () => sync.knownPlan(),
    coreOpened() {
      touch();
      sync.engine.start();
      void refresh();
    },
    async stop() {
      stopped = true;
      showConflictBadge(0, opts.window());
      // Rounds stop at the abort; should one not (a lock held elsewhere), quit anyway after 5 s —
      // every write is atomic, so a round cut short leaves nothing half-written.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        sync.stop(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
