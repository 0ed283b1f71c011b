import type { CliCommand } from '../types.js';
import { agentsCommands } from './agents.js';
import { backupsCommands } from './backups.js';
import { cleanupCommands } from './cleanup.js';
import { extractCommand } from './extract.js';
import { hookCommand } from './hook.js';
import { notesCommands } from './notes.js';
import { projectCommands } from './project.js';
import { setupCommand } from './setup.js';
import { syncCommands, syncStatusCommands } from './sync.js';

/** Every CLI command. Areas add theirs with one line (a file under commands/ exporting a list). */
export const cliCommands: CliCommand[] = [...syncStatusCommands, ...projectCommands, ...notesCommands, ...backupsCommands, ...agentsCommands, hookCommand, setupCommand, extractCommand, ...cleanupCommands, ...syncCommands];
