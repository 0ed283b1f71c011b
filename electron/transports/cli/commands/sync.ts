import type { ScopeSyncStatus, SyncNowOutput, SyncStatus } from '../../../../shared/api/sync.js';
import { parseNote } from '../../../../shared/note-format.js';
import { NO_ARGS, oneArg, scopeFlag, stringFlag } from '../args.js';
import type { ApiInput } from '../../../../shared/api.js';
import { AppError } from '../../../../shared/errors.js';
import { ExitCodeError } from '../exit-code-error.js';
import { UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../types.js';
import { apiCommand } from '../api-command.js';

function when(t: number | null): string {
  return t === null ? 'never' : new Date(t).toISOString();
}

/** Held files, notes that stay here (each with its reason), then the other notices of a scope. */
function whatStaysHere(s: Pick<ScopeSyncStatus, 'notices' | 'held' | 'localOnly'>): string[] {
  const perNote = new Set(s.localOnly.map((l) => l.message));
  return [
    ...s.held.map((h) => `  held (${h.reason}): ${h.message}`),
    ...s.localOnly.map((l) => `  stays here (${l.reason}): ${l.message}`),
    ...s.notices.filter((n) => !perNote.has(n)).map((n) => `  note: ${n}`),
  ];
}

function statusText(out: SyncStatus): string {
  const lines = [
    `cloud sync: ${out.enabled ? 'on' : 'off'}${out.signedIn ? `, signed in to ${out.origin}` : ', signed out'}; last synced ${when(out.lastSyncedAt)}`,
  ];
  lines.push(
    out.owner
      ? `sync owner on this computer: ${out.owner.role} (pid ${out.owner.pid}) since ${when(out.owner.since)}`
      : 'sync owner on this computer: none running (a CLI write syncs itself before it exits)',
  );
  if (out.waiting) lines.push(`waiting: ${out.waiting.message}`);
  for (const s of out.scopes) {
    const pull = s.lastPull
      ? `last pull +${s.lastPull.added} ~${s.lastPull.changed} -${s.lastPull.deleted} at ${when(s.lastPull.at)}`
      : 'nothing pulled yet';
    lines.push(`${s.label}: ${s.enabled ? 'on' : 'off'}; last synced ${when(s.lastSyncedAt)}; ${pull}`);
    if (s.boundTo) lines.push(`  bound to ${s.boundTo.userId} on ${s.boundTo.origin}`);
    if (s.pausedUntil) lines.push(`  paused until ${when(s.pausedUntil)}: sync ran too often and will retry`);
    if (s.error) lines.push(`  error (${s.error.code}): ${s.error.message}`);
    if (s.plan?.name === 'free')
      lines.push(
        `  free plan: up to ${s.plan.notesPerScope ?? '∞'} notes, ${s.plan.noteBytes ?? '∞'} bytes of body per note`,
      );
    lines.push(...whatStaysHere(s));

    if (s.conflicts.length)
      lines.push(
        `  ${s.conflicts.length} conflict(s): ${s.conflicts.map((c) => c.id).join(', ')} (memdesk conflicts)`,
      );
    if (s.pendingDeletes)
      lines.push(
        `  waiting for you: ${s.pendingDeletes.count} of ${s.pendingDeletes.total} notes would be deleted (${s.pendingDeletes.count - s.pendingDeletes.here} by the cloud, ${s.pendingDeletes.here} here) (memdesk sync --deletes delete|keep)`,
      );
  }
  return lines.join('\n');
}

/** What a round did in each scope (`memdesk sync`). */
function roundText(out: SyncNowOutput): string {
  const lines: string[] = [];
  for (const [scope, r] of Object.entries(out.scopes)) {
    if (!r) continue;
    const label = scope === 'user' ? 'Your own notes' : 'Project notes';
    lines.push(
      `${label}: pulled +${r.pulled.added} ~${r.pulled.changed} -${r.pulled.deleted}, pushed ${r.pushed}${r.conflicts.length ? `, ${r.conflicts.length} conflict(s): ${r.conflicts.join(', ')}` : ''}`,
    );
    if (r.error) lines.push(`  error (${r.error.code}): ${r.error.message}`);
    lines.push(...whatStaysHere(r));
  }
  return lines.join('\n') || 'nothing to sync (no registered project and no user notes directory)';
}

/** `status` and `sync status`: one command under two names (issue 5's `status`). */
function statusCommand(name: string): CliCommand {
  const summary =
    'Cloud sync per scope: enabled, last synced, last pull, error, paused-until, plan limits, conflicts.';
  return apiCommand({ name, summary }, 'sync.status', {}, statusText);
}

/** `--deletes delete|keep`: the answer to the mass-delete question, when given. */
function deletesFlag(args: ParsedArgs): 'delete' | 'keep' | undefined {
  const deletes = stringFlag(args, 'deletes');
  if (deletes !== undefined && deletes !== 'delete' && deletes !== 'keep')
    throw new UsageError('--deletes must be "delete" or "keep"');
  return deletes;
}

/** Exit codes of `login --device` that are not plain refusals (docs/cli.md). */
const DEVICE_SIGN_IN_EXIT_CODES: Record<string, number> = { access_denied: 3, expired_token: 4 };

/** `login --device`: prints the address and code as they come, then waits for the confirmation. */
async function signInDevice(io: CliIo, input: ApiInput<'account.signInDevice'>) {
  const stop = io.subscribe((event) => {
    if (event.type !== 'account.deviceCode') return;
    io.note(
      `To sign in, open ${event.verificationUri} in a browser on any device and enter the code ${event.userCode}`,
    );
    if (event.verificationUriComplete)
      io.note(`  or open this address, which holds the code:\n  ${event.verificationUriComplete}`);
    io.note(
      `The code is valid for ${event.expiresInSeconds < 120 ? `${event.expiresInSeconds} s` : `${Math.round(event.expiresInSeconds / 60)} min`}; waiting for you to confirm it…`,
    );
  });
  try {
    return await io.invoke('account.signInDevice', input);
  } catch (err) {
    const reason =
      err instanceof AppError ? (err.details as { reason?: string } | undefined)?.reason : undefined;
    const exitCode = reason ? DEVICE_SIGN_IN_EXIT_CODES[reason] : undefined;
    throw err instanceof AppError && exitCode ? new ExitCodeError(err, exitCode) : err;
  } finally {
    stop();
  }
}

/**
 * `memdesk status` (issue 5). Registered ahead of every other area's commands so it takes the
 * name while the core's app status still uses it too (it is to become `memdesk info`).
 */
export const syncStatusCommands: CliCommand[] = [statusCommand('status')];

export const syncCommands: CliCommand[] = [
  {
    name: 'login',
    usage: 'login --origin URL [--device] [--device-name NAME] | login --origin URL --token TOKEN',
    summary:
      'Sign in to a sync server: in your browser (the URL is printed), or with --device on a terminal without one (confirm the printed code in any browser), or with a token from whoever runs it. The refresh token goes to a 0600 file; sync turns on by default.',
    flags: { origin: 'string', token: 'string', device: 'boolean', 'device-name': 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const origin = stringFlag(args, 'origin');
      const token = stringFlag(args, 'token');
      const deviceName = stringFlag(args, 'device-name');
      const device = args.flags.device === true;
      if (!origin)
        throw new UsageError('login needs --origin URL (and --token TOKEN to sign in with a token)');
      if (token !== undefined && (deviceName !== undefined || device))
        throw new UsageError(
          '--device and --device-name are for signing in with OpenID Connect, not with --token',
        );
      const named = { origin, ...(deviceName ? { deviceName } : {}) };
      const out = token
        ? await io.invoke('sync.login', { origin, token })
        : device
          ? await signInDevice(io, named)
          : await io.invoke('account.signIn', named);
      return { json: out, text: `signed in to ${out.origin}${out.userId ? ` as ${out.userId}` : ''}` };
    },
  },
  apiCommand(
    { name: 'logout', summary: 'Forget the sync token; notes and the sync setting stay.' },
    'sync.logout',
    {},
    () => 'signed out',
  ),
  apiCommand(
    { name: 'sync on', summary: 'Turn cloud sync on again for both scopes.' },
    'sync.setEnabled',
    { enabled: true },
    statusText,
  ),
  apiCommand(
    {
      name: 'sync off',
      summary: '关闭云同步: turn cloud sync off for both scopes (deletes nothing in the cloud).',
    },
    'sync.setEnabled',
    { enabled: false },
    statusText,
  ),
  statusCommand('sync status'),
  apiCommand(
    {
      name: 'sync',
      usage: 'sync [--scope project|user] [--deletes delete|keep]',
      summary: '立即同步: one sync round now for both scopes. --deletes answers the mass-delete question.',
      flags: { scope: 'string', deletes: 'string' },
    },
    'sync.now',
    (args) => {
      const deletes = deletesFlag(args);
      const scope = scopeFlag(args);
      return { ...(deletes ? { deletes } : {}), ...(scope ? { scope } : {}) };
    },
    roundText,
  ),
  apiCommand(
    { name: 'conflicts', summary: 'Sync conflicts waiting for you (resolve them with memdesk resolve).' },
    'sync.conflicts',
    {},
    (out) =>
      out.conflicts.length
        ? out.conflicts.map((c) => `${c.id} [${c.scope}] ${c.kind}: ${c.message}`).join('\n')
        : 'no conflicts',
  ),
  {
    name: 'resolve',
    usage: 'resolve ID --keep local|cloud|both | --merged-file FILE [--scope project|user]',
    summary:
      'Resolve a conflict: keep this computer’s, take the cloud’s, keep both, or the merged note in FILE. What is set aside is backed up.',
    flags: { keep: 'string', 'merged-file': 'string', scope: 'string' },
    positionals: oneArg('ID'),
    async run(io, args) {
      const id = args.positionals[0]!;
      const keep = stringFlag(args, 'keep');
      const file = stringFlag(args, 'merged-file');
      const scope = scopeFlag(args);
      if ((keep === undefined) === (file === undefined))
        throw new UsageError('resolve needs exactly one of --keep local|cloud|both or --merged-file FILE');
      if (keep !== undefined && keep !== 'local' && keep !== 'cloud' && keep !== 'both')
        throw new UsageError('--keep must be local, cloud or both');
      let input;
      if (file !== undefined) {
        const text = await io.readFile(file);
        const parsed = parseNote(text);
        // A file with frontmatter sets every field; plain text replaces the body of the draft.
        if (parsed.ok) {
          input = {
            id,
            merged: {
              summary: parsed.note.summary,
              ...(parsed.note.type ? { type: parsed.note.type } : {}),
              tags: parsed.note.tags,
              body: parsed.note.body,
            },
            ...(scope ? { scope } : {}),
          };
        } else {
          const detail = await io.invoke('sync.conflict', { id, ...(scope ? { scope } : {}) });
          input = { id, merged: { ...detail.draft, body: text }, ...(scope ? { scope } : {}) };
        }
        if (/^(<<<<<<<|>>>>>>>) /m.test(input.merged.body))
          throw new UsageError(`${file} still has conflict markers (<<<<<<< / >>>>>>>); edit them out first`);
      } else {
        input = { id, keep: keep as 'local' | 'cloud' | 'both', ...(scope ? { scope } : {}) };
      }
      const out = await io.invoke('sync.resolve', input);
      return {
        json: out,
        text: `resolved ${out.id} [${out.scope}]${out.newId ? `; the cloud’s version is now ${out.newId}` : ''}; it syncs with the next round (memdesk sync)`,
      };
    },
  },
];
