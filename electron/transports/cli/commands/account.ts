import { oneArg } from '../args.js';
import type { Device } from '../../../../shared/sync-auth.js';
import type { CliCommand } from '../types.js';
import { apiCommand } from '../api-command.js';

function when(t: number | null): string {
  return t === null ? 'never' : new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

function deviceLine(d: Device): string {
  const state = d.revokedAt !== null ? `revoked ${when(d.revokedAt)}` : `last seen ${when(d.lastSeenAt)}`;
  return `${d.id}  ${d.name}${d.current ? ' (this device)' : ''}  signed in ${when(d.createdAt)}, ${state}`;
}

/** `memdesk devices` and `memdesk devices revoke ID`: this sync account's signed-in devices. */
export const accountCommands: CliCommand[] = [
  apiCommand(
    { name: 'devices', summary: 'The devices signed in to this sync account: name, last seen, revoked.' },
    'account.devices',
    {},
    (out) => out.devices.map(deviceLine).join('\n') || 'no devices',
  ),
  apiCommand(
    {
      name: 'devices revoke',
      usage: 'devices revoke ID',
      summary:
        'Sign a device out of this sync account (it keeps its notes); revoking this one signs it out here too.',
      positionals: oneArg('ID'),
    },
    'account.revokeDevice',
    (args) => ({ id: args.positionals[0]! }),
    (out) =>
      `revoked ${out.device.name} (${out.device.id})${out.signedOut ? '; this device is signed out, its notes stay' : ''}`,
  ),
];
