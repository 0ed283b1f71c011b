import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppEvent } from '../../../shared/events.js';
import type { HandlerContext } from '../../api/context.js';
import { createAppRoot } from '../../app/app-root.js';
import type { ProcessSync, ProcessSyncOptions } from '../../app/process-sync.js';
import type { ProjectCleanup, ProjectCleanupOptions } from '../../cleanup/background.js';
import { pageHandlers } from '../page-methods.js';
import { archiveExchange } from './archive-routes.js';
import { runCli } from '../cli/run.js';
import { serveWarm } from '../cli/warm-answer.js';
import { startHttpBridge } from './server.js';

/** Where `npm run build:renderer` puts the page (relative to the repository root). */
export function defaultRendererDir(): string {
  // This file runs from electron/transports/http (tsx) or dist/electron/transports/http (built).
  const here = path.dirname(fileURLToPath(import.meta.url));
  const repo = here.includes(`${path.sep}dist${path.sep}electron`)
    ? path.resolve(here, '../../../..')
    : path.resolve(here, '../../..');
  return path.join(repo, 'dist', 'renderer');
}

export interface WebBridgeOptions {
  /** OHARNESS_HOME to serve. Never defaulted to the real home here: the caller decides. */
  home: string;
  /** The project whose MEMORY/ is served; omit for user notes only. */
  projectRoot?: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Defaults to a random 32-byte secret. */
  secret?: string;
  staticDir?: string;
  /** Watch the note directories so edits on disk reach the page (default true). */
  watch?: boolean;
  now?: () => number;
  env?: Record<string, string | undefined>;
  /** Cloud sync like the app's (one coordinator, polling, stop on close); `false` turns it off. */
  sync?:
    | false
    | { autoStart?: boolean; fetch?: typeof fetch; kdfCostForTests?: ProcessSyncOptions['kdfCostForTests'] };
  /** Background consolidation (tests inject timers); `false` does not start it. */
  consolidation?: false | Pick<ProjectCleanupOptions, 'timers' | 'now' | 'onRound'>;
}

export interface WebBridge {
  /** The URL to open, carrying this run's secret. */
  url: string;
  port: number;
  secret: string;
  /** The core the bridge serves (tests and two-device setups reach in here). */
  context: HandlerContext;
  /** The process's sync engine for this home (null with `sync: false`). */
  sync: ProcessSync | null;
  /** 待整理's service and background consolidation for the project (null with `consolidation: false`). */
  cleanup: ProjectCleanup | null;
  close(): Promise<void>;
}

/**
 * The composition root (electron/app) for one project + the HTTP bridge over its handler table, in
 * one call: what `npm run demo` and the e2e tests start.
 */
export async function startWebBridge(opts: WebBridgeOptions): Promise<WebBridge> {
  const listeners = new Set<(event: AppEvent) => void>();
  const root = createAppRoot({
    home: opts.home,
    // The bridge reads config overrides only from what it is given, never from the real environment.
    env: opts.env ?? { OHARNESS_HOME: opts.home },
    emit: (event) => listeners.forEach((l) => l(event)),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.sync === false
      ? {}
      : {
          sync: {
            autoStart: opts.sync?.autoStart ?? true,
            owner: { role: 'bridge' },
            ...(opts.sync?.fetch ? { fetch: opts.sync.fetch } : {}),
            ...(opts.sync?.kdfCostForTests ? { kdfCostForTests: opts.sync.kdfCostForTests } : {}),
          },
          syncOnOpen: true,
        }),
    ...(opts.consolidation === false ? {} : { consolidation: opts.consolidation ?? {} }),
  });
  const project = await root.open({
    ...(opts.projectRoot !== undefined ? { projectRoot: opts.projectRoot, cwd: opts.projectRoot } : {}),
    watch: opts.watch ?? true,
  });
  // One-shot `memdesk recall` / `hook` / `list` / `search` of this home and project are answered
  // from here (docs/agents.md "Warm answers"); a bridge for user notes only serves none.
  const projectRoot = project.ctx.core.project?.root;
  const warm = projectRoot
    ? await serveWarm(
        {
          home: opts.home,
          projectRoot,
          env: opts.env ?? { OHARNESS_HOME: opts.home },
          processEnv: process.env,
          run: runCli,
          services: root,
        },
        project,
      )
    : null;
  const close = async (): Promise<void> => {
    await warm?.close();
    await project.close();
    await root.stop();
  };
  const secret = opts.secret ?? randomBytes(32).toString('base64url');
  let http;
  try {
    http = await startHttpBridge({
      handlers: pageHandlers(project.handlers),
      // Export / import by download and upload: the page never names a path (archive-routes.ts).
      archives: archiveExchange(() => project.handlers, opts.now ?? Date.now),
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      staticDir: opts.staticDir ?? defaultRendererDir(),
      secret,
      port: opts.port,
    });
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url: http.url,
    port: http.port,
    secret,
    context: project.ctx,
    sync: opts.sync === false ? null : await root.sync(),
    cleanup: project.cleanup,
    async close() {
      await http.close();
      await close();
    },
  };
}
