import { statSync } from 'node:fs';
import { openProject, type OpenProject } from '../../app/open-project.js';
import { projectConfigPath, userConfigPath } from '../../memory/config.js';
import type { WarmPlace, WarmProject } from './warm-place.js';

/** The project a warm answer runs on; null when it does not open with the config now on disk. */
export type AnsweringProject = WarmProject | null;

/** A config file's identity: an edit since a project was opened means another config. */
function stamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return 'none';
  }
}

/** How often the config files are looked at between answers (two stats). */
const CONFIG_POLL_MS = 1_000;

interface Held {
  project: AnsweringProject;
  /** The config files' stamps read before the project was opened. */
  stamp: string;
  /** Answers running on it now. */
  users: number;
  /** Closes a project opened here (the process's own is closed by the process); null for none. */
  close: (() => Promise<void>) | null;
  retired: boolean;
}

/**
 * Warm answers follow config.json (the user's and the project's): the process's own project
 * answers while both files are as they were when it was opened; after an edit the project is
 * opened again, with the new config, for warm answers only — no sync attachment, no background
 * consolidation, no events (the process's own project watches the same files and reports them) —
 * and replaced again on every later edit (looked for before each answer and every second). A replaced project closes when the last answer running
 * on it is done. The process's own handlers (its MCP tools, its page) keep the config they started
 * with until it restarts.
 */
export function configFollower(
  place: Pick<WarmPlace, 'home' | 'projectRoot' | 'services'>,
  own: WarmProject,
): {
  use<T>(fn: (project: AnsweringProject) => Promise<T>): Promise<T>;
  close(): Promise<void>;
} {
  const files = [userConfigPath(place.home), projectConfigPath(place.projectRoot)];
  const stamps = (): string => files.map(stamp).join('|');
  let current: Promise<Held> = Promise.resolve({
    project: own,
    stamp: stamps(),
    users: 0,
    close: null,
    retired: false,
  });
  let closed = false;

  /** Closes a project opened here once nothing runs on it (each at most once). */
  const closeIfIdle = async (held: Held): Promise<void> => {
    if (!held.retired || held.users > 0) return;
    const close = held.close;
    held.close = null;
    await close?.();
  };
  const retire = (held: Held): Promise<void> => {
    held.retired = true;
    return closeIfIdle(held);
  };

  /** The project as configured now: opened with the config files' stamps taken before it. */
  const reopen = async (now: string): Promise<Held> => {
    const { consolidation: _none, ...services } = place.services;
    const opened: OpenProject | null = await openProject(
      { ...services, syncOnOpen: false, emit: () => {} },
      { projectRoot: place.projectRoot, cwd: place.projectRoot, watch: true },
    ).catch(() => null); // a config the project cannot open with: answered cold until the next edit
    return { project: opened, stamp: now, users: 0, close: opened && (() => opened.close()), retired: false };
  };

  const follower = {
    async use<T>(fn: (project: AnsweringProject) => Promise<T>): Promise<T> {
      // One check at a time: two answers after an edit open the project once.
      current = current.then(async (held) => {
        const now = stamps();
        if (closed || now === held.stamp) return held;
        const next = await reopen(now);
        await retire(held);
        return next;
      });
      const held = await current;
      held.users++;
      try {
        return await fn(held.project);
      } finally {
        held.users--;
        await closeIfIdle(held);
      }
    },
    async close() {
      closed = true;
      clearInterval(poll);
      await retire(await current);
    },
  };
  // An edit is looked for every second too, so the project is usually open again before the
  // next one-shot command asks (opening it can take longer than the client waits).
  const poll = setInterval(() => void follower.use(async () => undefined), CONFIG_POLL_MS);
  poll.unref();
  return follower;
}
