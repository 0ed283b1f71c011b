import type { AppEvent } from '../../../shared/events.js';
import { createApiContext, type HandlerContext } from '../../api/context.js';
import { createHandlers } from '../../api/handlers.js';
import type { ApiHandlers } from '../../api/dispatch.js';

/**
 * The core the desktop app serves: one OHARNESS_HOME, at most one open project. Opening another
 * project builds a new context first and only then closes the old one, so calls never see none.
 */
export class CoreHost {
  private ctx: HandlerContext | null = null;
  private table: ApiHandlers | null = null;
  private opening: Promise<void> = Promise.resolve();

  constructor(
    private readonly home: string,
    private readonly emit: (event: AppEvent) => void,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  get projectRoot(): string | null {
    return this.ctx?.core.project?.root ?? null;
  }

  handlers(): ApiHandlers {
    if (!this.table) throw new Error('the memory core is not open yet');
    return this.table;
  }

  /** Opens a project (or user notes only, with no root). Serialized: the last call wins. */
  open(projectRoot: string | undefined): Promise<void> {
    this.opening = this.opening.then(async () => {
      const next = await createApiContext({
        home: this.home,
        env: this.env,
        emit: this.emit,
        watch: true,
        ...(projectRoot !== undefined ? { projectRoot, cwd: projectRoot } : {}),
      });
      const previous = this.ctx;
      this.ctx = next;
      this.table = createHandlers(next);
      await previous?.core.close();
    });
    return this.opening;
  }

  async close(): Promise<void> {
    await this.opening.catch(() => undefined);
    const ctx = this.ctx;
    this.ctx = null;
    this.table = null;
    await ctx?.core.close();
  }
}
