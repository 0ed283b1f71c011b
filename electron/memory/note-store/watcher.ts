import { watch as watchFs, type FSWatcher } from 'node:fs';
import { onUnexpectedError } from '../unexpected-error.js';

export interface DirWatcherOptions {
  dir: string;
  /** Debounce (ms) between a change on disk and the rescan. */
  debounceMs: number;
  /** Re-reads the directory; a throw (a file vanishing mid-read) is retried at the next event. */
  rescan: () => Promise<void>;
  /** The watcher failed (or works again: null); edits by others go unseen meanwhile. */
  onFailure: (err: Error | null) => void;
}

/**
 * Watches a note directory for edits made by others: debounced, one rescan at a time (edits during
 * a rescan trigger one more), failures reported rather than swallowed.
 */
export class DirWatcher {
  private watcher: FSWatcher | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private rescanning: Promise<void> | null = null;
  private rescanAgain = false;
  private closed = false;
  private failed = false;

  constructor(private readonly opts: DirWatcherOptions) {}

  get running(): boolean {
    return this.watcher !== null;
  }

  /** Starts watching (idempotent); a directory that does not exist yet is not an error. */
  start(): void {
    if (this.watcher || this.closed) return;
    try {
      this.watcher = watchFs(this.opts.dir, { persistent: false }, () => this.schedule());
      this.watcher.on('error', (err) => {
        this.watcher?.close();
        this.watcher = null;
        this.fail(err);
      });
      if (this.failed) {
        this.failed = false;
        this.opts.onFailure(null);
      }
    } catch (err) {
      // ENOENT: the directory does not exist yet (unregistered project): the first write creates it
      // and starts the watcher then. Anything else (the system's watch limit reached, EMFILE or
      // ENOSPC under load) is reported, never swallowed: edits by others would go unseen.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.fail(err as Error);
    }
  }

  private fail(err: Error): void {
    this.failed = true;
    this.opts.onFailure(err);
  }

  /** A rescan after the debounce. */
  schedule(): void {
    if (this.closed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.rescan();
    }, this.opts.debounceMs);
  }

  /**
   * Applies what the watcher has been told of at once instead of after the debounce: a pending
   * rescan runs now and a running one is waited for (a warm answer must not miss an edit the
   * system already reported: docs/agents.md). With `always`, rescans even when nothing was
   * reported — for platforms whose events arrive late (FSEvents coalesces them).
   */
  async flush(always = false): Promise<void> {
    if (this.closed || (!this.watcher && !always)) return;
    if (this.debounce || always) {
      if (this.debounce) clearTimeout(this.debounce);
      this.debounce = null;
      await this.rescan();
    } else if (this.rescanning) await this.rescanning;
  }

  /** Runs one rescan at a time; a request during one runs one more after it. */
  private async rescan(): Promise<void> {
    if (this.rescanning) {
      this.rescanAgain = true;
      return this.rescanning;
    }
    this.rescanning = (async () => {
      do {
        this.rescanAgain = false;
        try {
          await this.opts.rescan();
        } catch (err) {
          onUnexpectedError(err, 'note watcher: rescan'); // retried at the next event
        }
      } while (this.rescanAgain && !this.closed);
    })();
    try {
      await this.rescanning;
    } finally {
      this.rescanning = null;
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = null;
    await this.rescanning;
  }
}
