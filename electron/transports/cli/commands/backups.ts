import { intFlag } from '../args.js';
import type { CliCommand } from '../types.js';

export const backupsCommands: CliCommand[] = [
  {
    name: 'backups',
    usage: 'backups [--limit N]',
    summary: 'The latest backups (50 unless --limit), newest first, with when and why.',
    flags: { limit: 'string' },
    positionals: { min: 0, max: 0, names: '' },
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
  {
    name: 'restore',
    usage: 'restore BACKUP_ID',
    summary:
      'Restore a backup to the directory it came from (a newer version it replaces is backed up first).',
    flags: {},
    positionals: { min: 1, max: 1, names: 'BACKUP_ID' },
    async run(io, args) {
      const out = await io.invoke('backups.restore', { backupId: args.positionals[0]! });
      const replaced = out.replacedBackupId
        ? `; the version it replaced is backup ${out.replacedBackupId}`
        : '';
      return { json: out, text: `restored ${out.id} to ${out.dir}${replaced}` };
    },
  },
];
