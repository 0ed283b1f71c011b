import type { CliCommand } from '../types.js';

/** A file under commands/ exporting a list of commands, imported only when one of them runs. */
type Area = () => Promise<readonly CliCommand[]>;

const syncStatus: Area = async () => (await import('./sync.js')).syncStatusCommands;
const project: Area = async () => (await import('./project.js')).projectCommands;
const notes: Area = async () => (await import('./notes.js')).notesCommands;
const backups: Area = async () => (await import('./backups.js')).backupsCommands;
const agents: Area = async () => (await import('./agents.js')).agentsCommands;
const hook: Area = async () => (await import('./hook.js')).hookCommands;
const setup: Area = async () => (await import('./setup.js')).setupCommands;
const extract: Area = async () => (await import('./extract.js')).extractCommands;
const cleanup: Area = async () => (await import('./cleanup.js')).cleanupCommands;
const sync: Area = async () => (await import('./sync.js')).syncCommands;
const account: Area = async () => (await import('./account.js')).accountCommands;
const encryption: Area = async () => (await import('./encryption.js')).encryptionCommands;
const semantic: Area = async () => (await import('./semantic.js')).semanticCommands;

/**
 * Every CLI command, in help order: its name and the file that defines it. A command's file is
 * imported only when that command runs (or for the full help), so `memdesk recall` never loads
 * what `memdesk mcp` or `memdesk sync` needs (docs/performance.md, CLI cold start).
 * One line per command; test/cli/registry.test.ts checks this list against the files.
 */
export const cliCommandIndex: ReadonlyArray<readonly [name: string, area: Area]> = [
  ['status', syncStatus],
  ['project init', project],
  ['info', project],
  ['remember', notes],
  ['list', notes],
  ['show', notes],
  ['edit', notes],
  ['forget', notes],
  ['search', notes],
  ['recall', notes],
  ['index', notes],
  ['backups', backups],
  ['restore', backups],
  ['retain', agents],
  ['mcp', agents],
  ['export', agents],
  ['import mnemopi', agents],
  ['import', agents],
  ['hook', hook],
  ['setup', setup],
  ['extract', extract],
  ['findings', cleanup],
  ['dismiss', cleanup],
  ['merge plan', cleanup],
  ['merge apply', cleanup],
  ['model', cleanup],
  ['model set', cleanup],
  ['model clear', cleanup],
  ['semantic status', semantic],
  ['semantic on', semantic],
  ['semantic off', semantic],
  ['semantic configure', semantic],
  ['semantic test', semantic],
  ['login', sync],
  ['logout', sync],
  ['devices', account],
  ['devices revoke', account],
  ['sync on', sync],
  ['sync off', sync],
  ['sync status', sync],
  ['sync', sync],
  ['conflicts', sync],
  ['resolve', sync],
  ['encryption status', encryption],
  ['encryption on', encryption],
  ['encryption unlock', encryption],
  ['encryption change-passphrase', encryption],
];

/** The command a name (one or two words) names, or null. */
export function commandArea(name: string): Area | null {
  return cliCommandIndex.find(([n]) => n === name)?.[1] ?? null;
}

/** Loads one command's definition. */
export async function loadCommand(name: string): Promise<CliCommand> {
  const area = commandArea(name);
  const command = area && (await area()).find((c) => c.name === name);
  if (!command) throw new Error(`the CLI command "${name}" is listed but not defined`);
  return command;
}

/** Every command's definition, in help order (the full help reads them all). */
export async function allCommands(): Promise<CliCommand[]> {
  return Promise.all(cliCommandIndex.map(([name]) => loadCommand(name)));
}
