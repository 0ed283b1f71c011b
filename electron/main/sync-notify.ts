import { Notification } from 'electron';
import { ConflictTracker } from './sync-conflict-tracker.js';

/**
 * Tells the person when sync conflicts arrive: compares each conflict list with the ids seen
 * before and shows one OS notification for the new ones; clicking it opens the conflict view.
 * The first list (what was already waiting at start) sets the baseline without a notification.
 */
export class ConflictNotifier {
  private readonly tracker = new ConflictTracker();

  constructor(
    private readonly opts: {
      locale: () => string;
      onClick: () => void;
    },
  ) {}

  /** Returns the ids that are new since the last list (and notifies about them). */
  update(conflicts: ReadonlyArray<{ id: string; scope: string }>): string[] {
    const fresh = this.tracker.update(conflicts);
    if (fresh.length > 0 && Notification.isSupported()) {
      const zh = this.opts.locale().toLowerCase().startsWith('zh');
      const names = fresh
        .slice(0, 3)
        .map((c) => c.id)
        .join(', ');
      const n = new Notification({
        title: zh
          ? `同步冲突：${fresh.length} 条`
          : `${fresh.length} new sync conflict${fresh.length === 1 ? '' : 's'}`,
        body: zh
          ? `${names}${fresh.length > 3 ? ' …' : ''} — 点击查看并解决。`
          : `${names}${fresh.length > 3 ? ' …' : ''} — click to review and resolve them.`,
      });
      n.on('click', () => this.opts.onClick());
      n.show();
    }
    return fresh.map((c) => c.id);
  }
}
