import type { AppEvent } from '../../shared/events.js';
import { createApiContext, type HandlerContext } from '../api/context.js';
import type { ApiHandlers } from '../api/dispatch.js';
import { createHandlers } from '../api/handlers.js';

/** What the app runs alongside one open project (background consolidation, sync attachments). */
export interface ProjectSession {
  /** Before the project's core closes (project switch, quit). */
  close(): Promise<void>;
}

/**
 * The core the desktop app serves: one OHARNESS_HOME, at most one open project. Opening another
 * project builds the new context (and its session) first, then closes the old session and core,
 * so calls never see none. Plain Node: tested without Electron.
 */
export class ProjectHost {
  private current: { ctx: HandlerContext; table: ApiHandlers; session: ProjectSession } | null = null;
  private opening: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: {
      home: string;
      emit: (event: AppEvent) => void;
      /** Called with each new context before its handler table is built. */
      openSession: (ctx: HandlerContext) => Promise<ProjectSession>;
      env?: Record<string, string | undefined>;
      watch?: boolean;
    },
  ) {}

  get projectRoot(): string | null {
    return this.current?.ctx.core.project?.root ?? null;
  }

  get context(): HandlerContext | null {
    return this.current?.ctx ?? null;
  }

  handlers(): ApiHandlers {
    if (!this.current) throw new Error('the memory core is not open yet');
    return this.current.table;
  }

  /** Opens a project (or user notes only, with no root). Serialized: the last call wins. */
  open(projectRoot: string | undefined): Promise<void> {
    this.opening = this.opening.then(async () => {
      const ctx = await createApiContext({
        home: this.opts.home,
        env: this.opts.env ?? process.env,
        emit: this.opts.emit,
        watch: this.opts.watch ?? true,
        ...(projectRoot !== undefined ? { projectRoot, cwd: projectRoot } : {}),
      });
      let session: ProjectSession;
      try {
        session = await this.opts.openSession(ctx);
      } catch (err) {
        await ctx.core.close();
        throw err;
      }
      const previous = this.current;
      this.current = { ctx, table: createHandlers(ctx), session };
      await closeProject(previous);
    });
    return this.opening;
  }

  async close(): Promise<void> {
    await this.opening.catch(() => undefined);
    const previous = this.current;
    this.current = null;
    await closeProject(previous);
  }
}

async function closeProject(p: { ctx: HandlerContext; session: ProjectSession } | null): Promise<void> {
  if (!p) return;
  await p.session.close().catch(() => undefined);
  await p.ctx.core.close();
}
