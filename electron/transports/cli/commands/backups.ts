import { intFlag, NO_ARGS, oneArg } from '../args.js';
import type { CliCommand } from '../types.js';
import { apiCommand } from '../api-command.js';

export const backupsCommands: CliCommand[] = [
  {
    name: 'backups',
    usage: 'backups [--limit N]',
    summary: 'The latest backups (50 unless --limit), newest first, with when and why.',
    flags: { limit: 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const out = await io.invoke('backups.list', { limit: intFlag(args, 'limit') ?? 50 });
      const text = out.backups.length
        ? out.backups
            .map(
              (b) =>
                `${b.id}  ${new Date(b.at).toISOString()}  ${b.noteId}${b.scope ? ` [${b.scope}]` : ''}  ${b.reason ?? '(no reason recorded)'}`,
            )
            .join('\n')
        : 'no backups';
      return { json: out, text };
    },
  },
  apiCommand(
    {
      name: 'restore',
      usage: 'restore BACKUP_ID',
      summary:
        'Restore a backup to the directory it came from (a newer version it replaces is backed up first).',
      positionals: oneArg('BACKUP_ID'),
    },
    'backups.restore',
    (args) => ({ backupId: args.positionals[0]! }),
    (out) =>
      `restored ${out.id} to ${out.dir}${out.replacedBackupId ? `; the version it replaced is backup ${out.replacedBackupId}` : ''}`,
  ),
];
