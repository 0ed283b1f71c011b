import { oneArg } from '../args.js';
import type { CliCommand } from '../types.js';
import { harnessArg } from './hook.js';

/** `memdesk setup <harness> [--dry-run] [--undo]`: connect (or disconnect) an agent harness. */
export const setupCommand: CliCommand = {
  name: 'setup',
  usage: 'setup <harness> [--dry-run] [--undo] [--project-rule]',
  summary:
    "Write Memory Desk's MCP server and hooks into a harness's own config under your home directory (backed up first); --dry-run prints the change, --undo takes it out again. cursor --project-rule also writes this project's always-applied Cursor rule with the memory index; cursor --undo --project-rule removes that rule alone.",
  flags: { 'dry-run': 'boolean', undo: 'boolean', 'project-rule': 'boolean' },
  positionals: oneArg('HARNESS (claude-code, codex, gemini or cursor)'),
  async run(io, args) {
    const out = await io.invoke('agents.setup', {
      harness: harnessArg(args.positionals[0]),
      dryRun: args.flags['dry-run'] === true,
      undo: args.flags.undo === true,
      projectRule: args.flags['project-rule'] === true,
    });
    const verb = args.flags['dry-run'] === true ? 'would be ' : '';
    const lines: string[] = [];
    for (const f of out.files) {
      lines.push(
        `${f.path}: ${f.action === 'unchanged' ? 'unchanged' : verb + f.action}${f.backup ? ` (old version: ${f.backup})` : ''}`,
      );
      if (f.diff && args.flags['dry-run'] === true) lines.push(f.diff);
    }
    lines.push(...out.notes);
    return { json: out, text: lines.join('\n') };
  },
};

export const setupCommands: CliCommand[] = [setupCommand];
