import type { ApiHandlers } from '../api/dispatch.js';
import type { HandlerContext } from '../api/context.js';
import type { AppRoot } from './app-root.js';
import type { OpenProject } from './open-project.js';

/**
 * The project a long-running process serves (the desktop app): one OHARNESS_HOME, at most one open
 * project. Opening another project builds the new one (core, services, handler table) first, then
 * closes the old one, so calls never see none. Plain Node: tested without Electron.
 */
export class ProjectHost {
  private current: OpenProject | null = null;
  private opening: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: AppRoot,
    private readonly opts: { watch?: boolean } = {},
  ) {}

  get projectRoot(): string | null {
    return this.current?.ctx.core.project?.root ?? null;
  }

  get context(): HandlerContext | null {
    return this.current?.ctx ?? null;
  }

  handlers(): ApiHandlers {
    if (!this.current) throw new Error('the memory core is not open yet');
    return this.current.handlers;
  }

  /** Opens a project (or user notes only, with no root). Serialized: the last call wins. */
  open(projectRoot: string | undefined): Promise<void> {
    // A failed open was reported to its caller; the next one starts afresh.
    this.opening = this.opening
      .catch(() => undefined)
      .then(async () => {
        const next = await this.root.open({
          watch: this.opts.watch ?? true,
          ...(projectRoot !== undefined ? { projectRoot, cwd: projectRoot } : {}),
        });
        const previous = this.current;
        this.current = next;
        await previous?.close();
      });
    return this.opening;
  }

  async close(): Promise<void> {
    await this.opening.catch(() => undefined); // a failed open was reported to its caller
    const previous = this.current;
    this.current = null;
    await previous?.close();
  }
}
