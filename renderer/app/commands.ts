import type { MenuCommand } from '../../shared/ipc-contract.js';

/**
 * Commands reachable from the native menu (desktop) and from the page's shortcuts (both). Pages
 * register what a command does while they are mounted; the latest registration wins.
 */
export type CommandName = MenuCommand;

const handlers = new Map<CommandName, Array<() => void>>();

export function registerCommand(name: CommandName, run: () => void): () => void {
  const list = handlers.get(name) ?? [];
  list.push(run);
  handlers.set(name, list);
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
