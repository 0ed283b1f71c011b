import type { MenuCommand } from '../../shared/ipc-contract.js';

/**
 * Commands reachable from the native menu (desktop) and from the page's shortcuts (both). Pages
 * register what a command does while they are mounted; the latest registration wins.
 */
export type CommandName = MenuCommand;

const handlers = new Map<CommandName, Array<() => void>>();
/** A command asked for while its page was being opened: run when that page registers it. */
let waiting: CommandName | null = null;

export function registerCommand(name: CommandName, run: () => void): () => void {
  const list = handlers.get(name) ?? [];
  list.push(run);
  handlers.set(name, list);
  if (waiting === name) {
    waiting = null;
    queueMicrotask(run);
  }
  return () => {
    const l = handlers.get(name);
    if (l)
      handlers.set(
        name,
        l.filter((f) => f !== run),
      );
  };
}

/** Returns false when nothing handles the command right now. */
export function runCommand(name: CommandName): boolean {
  const list = handlers.get(name);
  const run = list?.[list.length - 1];
  if (!run) return false;
  run();
  return true;
}

/**
 * Runs the command now, or as soon as a page registers it: the caller has just opened the tab
 * whose page handles it (Ctrl+N on the Backups tab opens the Memory page, then its new-note form).
 */
export function runCommandOnceReady(name: CommandName): void {
  if (!runCommand(name)) waiting = name;
}
