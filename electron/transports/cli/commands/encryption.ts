import type { EncryptionProgress } from '../../../../shared/events.js';
import { stringFlag } from '../args.js';
import { UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../types.js';
import { apiCommand } from '../api-command.js';
import { flagCommand } from './flag-command.js';

/**
 * A passphrase from the file the flag names: its first line (a trailing newline from an editor or
 * `echo` is not part of it).
 */
async function passphraseFrom(io: CliIo, args: ParsedArgs, flag: string): Promise<string> {
  const file = stringFlag(args, flag);
  if (!file)
    throw new UsageError(`--${flag} FILE is required (the passphrase is never taken on the command line)`);
  const text = (await io.readFile(file)).split(/\r?\n/)[0] ?? '';
  if (!text) throw new UsageError(`${file} is empty`);
  return text;
}

interface ScopeLine {
  scope: string;
  pushed: number;
  pulled: number;
  error: { code: string; message: string } | null;
}

function scopeLines(scopes: ScopeLine[]): string[] {
  return scopes.map((s) =>
    s.error
      ? `${s.scope} notes: not synced (${s.error.code}): ${s.error.message}`
      : `${s.scope} notes: ${s.pushed} uploaded sealed, ${s.pulled} pulled`,
  );
}

function progressLine(p: EncryptionProgress): string {
  switch (p.phase) {
    case 'syncing':
      return 'syncing every scope first…';
    case 'publishing':
      return 'publishing the keyring…';
    case 'uploading':
      return `uploading sealed: ${p.done} of ${p.total} notes`;
    case 'removing':
      return 'removing the unencrypted copy from the server…';
  }
}

export const encryptionCommands: CliCommand[] = [
  flagCommand({
    name: 'encryption status',
    summary: 'End-to-end encryption: is the signed-in account encrypted, is this device unlocked.',
    async run(io) {
      const out = await io.invoke('encryption.status', {});
      const account =
        out.accountEncrypted === null
          ? 'unknown (signed out or server unreachable)'
          : out.accountEncrypted
            ? 'on'
            : 'off';
      const lines = [
        `end-to-end encryption: ${account}${out.origin ? ` for ${out.origin}` : ''}`,
        `this device: ${out.unlocked ? `unlocked (key ${out.keyId})` : 'no key'}`,
      ];
      if (out.reuploadPending)
        lines.push('re-upload unfinished: run `memdesk encryption on` again to resume');
      return { json: out, text: lines.join('\n') };
    },
  }),
  flagCommand({
    name: 'encryption on',
    usage: 'encryption on --passphrase-file FILE',
    summary:
      'Turn end-to-end encryption on for the signed-in account: re-uploads every note sealed (run again to resume) and shows the recovery code once.',
    flags: { 'passphrase-file': 'string' },
    async run(io, args) {
      const passphrase = await passphraseFrom(io, args, 'passphrase-file');
      const stop = io.subscribe((event) => {
        if (event.type === 'encryption.progress') io.note(progressLine(event));
      });
      let out;
      try {
        out = await io.invoke('encryption.on', { passphrase });
      } finally {
        stop();
      }
      const lines = scopeLines(out.scopes);
      const unfinished = out.scopes.some((s) => s.error);
      lines.push(
        unfinished
          ? 'the re-upload is not finished: run `memdesk encryption on` again to resume'
          : `end-to-end encryption is on; ${out.purgedObjects} unencrypted objects were removed from the server`,
      );
      if (out.recoveryCode)
        lines.push(
          '',
          `RECOVERY CODE (shown once; keep it somewhere safe — without it and the passphrase the notes cannot be read):`,
          `  ${out.recoveryCode}`,
        );
      return { json: out, text: lines.join('\n') };
    },
  }),
  apiCommand(
    {
      name: 'encryption unlock',
      usage: 'encryption unlock --passphrase-file FILE | --recovery-code-file FILE',
      summary: 'Unlock this device for an encrypted account; a wrong passphrase exits 1 and writes nothing.',
      flags: { 'passphrase-file': 'string', 'recovery-code-file': 'string' },
    },
    'encryption.unlock',
    async (args, io) =>
      stringFlag(args, 'recovery-code-file')
        ? { recoveryCode: await passphraseFrom(io, args, 'recovery-code-file') }
        : { passphrase: await passphraseFrom(io, args, 'passphrase-file') },
    (out) => [`unlocked (key ${out.keyId})`, ...scopeLines(out.scopes)].join('\n'),
  ),
  apiCommand(
    {
      name: 'encryption change-passphrase',
      usage: 'encryption change-passphrase --passphrase-file OLD --new-passphrase-file NEW',
      summary: 'Change the encryption passphrase (re-wraps the key only; the recovery code stays valid).',
      flags: { 'passphrase-file': 'string', 'new-passphrase-file': 'string' },
    },
    'encryption.changePassphrase',
    async (args, io) => ({
      passphrase: await passphraseFrom(io, args, 'passphrase-file'),
      newPassphrase: await passphraseFrom(io, args, 'new-passphrase-file'),
    }),
    (out) => `passphrase changed (key ${out.keyId})`,
  ),
];
