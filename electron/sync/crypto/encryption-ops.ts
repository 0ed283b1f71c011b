import { AppError } from '../../../shared/errors.js';
import type { EncryptionProgress } from '../../../shared/events.js';
import type { Scope } from '../../../shared/note.js';
import { SEALED_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import type { AccountSource, SyncAccount } from '../account.js';
import type { TokenStore } from '../token-store.js';
import { masterOf, readDeviceKey, writeDeviceKey } from './device-key.js';
import { EncryptionError } from './errors.js';
import {
  assertPassphrase,
  changePassphrase,
  createKeyring,
  KeyringSchema,
  unlockWithPassphrase,
  unlockWithRecoveryCode,
  type Keyring,
} from './keyring.js';
import { reportedOr } from '../../memory/unexpected-error.js';

/** What one sync round of a scope did, for the commands' answers. */
export interface ScopeRun {
  scope: Scope;
  pushed: number;
  pulled: number;
  error: { code: string; message: string } | null;
}

export interface EncryptionDeps {
  accounts: AccountSource;
  keys: TokenStore;
  /** One round of every scope this process syncs (立即同步). */
  syncAll(): Promise<ScopeRun[]>;
  /** log2 of scrypt's N for new wraps (tests; default kdf.ts DEFAULT_SCRYPT). */
  logN?: number;
  /** The notes the scopes of syncAll hold: what the re-upload of `encryption on` counts up to. */
  noteCount?(): number;
  /** `encryption on` moving along (the API turns it into an event; the CLI prints it). */
  progress?(progress: EncryptionProgress): void;
  /** Whether sync is on here: while it is off no request reaches the server (status: unknown). */
  syncOn?(): Promise<boolean>;
}

const REQUEST_TIMEOUT_MS = 30_000;

async function signedIn(deps: EncryptionDeps): Promise<SyncAccount> {
  const account = await deps.accounts.current();
  if (!account)
    throw new AppError(
      'refused',
      'not signed in to a sync server (memdesk login --origin URL --token TOKEN)',
    );
  const who = await account.identity(AbortSignal.timeout(REQUEST_TIMEOUT_MS), async () => undefined);
  if (who.protocol.current < SEALED_PROTOCOL_VERSION)
    throw new AppError(
      'refused',
      `the sync server at ${account.origin} is too old for end-to-end encryption (it speaks protocol ${who.protocol.current}); ask whoever runs it to upgrade`,
    );
  return account;
}

async function serverKeyring(account: SyncAccount): Promise<{ keyring: Keyring | null; revision: number }> {
  const answer = await account.client.keyring(AbortSignal.timeout(REQUEST_TIMEOUT_MS));
  if (answer.keyring === null) return { keyring: null, revision: answer.revision };
  const parsed = KeyringSchema.safeParse(answer.keyring);
  if (!parsed.success) throw new EncryptionError('tampered', 'the keyring on the sync server is damaged');
  return { keyring: parsed.data, revision: answer.revision };
}

function failed(runs: ScopeRun[]): string | null {
  const bad = runs.filter((r) => r.error);
  return bad.length ? bad.map((r) => `${r.scope}: ${r.error!.message}`).join('; ') : null;
}

export async function encryptionStatus(deps: EncryptionDeps) {
  const origin = await deps.accounts.origin();
  const account = await deps.accounts.current().catch(reportedOr(null, 'encryption status: account'));
  const device = origin ? await readDeviceKey(deps.keys, origin) : null;
  let accountEncrypted: boolean | null = null;
  if (account && (await (deps.syncOn?.() ?? true))) {
    try {
      accountEncrypted = (await serverKeyring(await signedIn(deps))).keyring !== null;
    } catch {
      accountEncrypted = null; // the server cannot be asked now (offline, signed out there): unknown
    }
  }
  return {
    signedIn: account !== null,
    origin,
    accountEncrypted,
    unlocked: device !== null,
    keyId: device?.keyId ?? null,
    reuploadPending: device?.reupload ?? false,
  };
}

/**
 * `encryption on`: bring this device up to date with the unencrypted copy, publish a new keyring,
 * keep the key here, re-upload every scope sealed (each scope's baseline starts over, so this is a
 * first sync against the empty sealed copy), then have the server remove the unencrypted copy.
 * Interrupted anywhere after the keyring is published, running it again resumes at the re-upload.
 */
export async function turnEncryptionOn(deps: EncryptionDeps, passphrase: string) {
  let account = await signedIn(deps);
  const origin = account.origin;
  const total = deps.noteCount?.() ?? 0;
  const progress = (phase: EncryptionProgress['phase'], done = 0): void =>
    deps.progress?.({ phase, done, total: Math.max(total, done) });
  let device = await readDeviceKey(deps.keys, origin);
  const current = await serverKeyring(account);
  let recoveryCode: string | null = null;
  if (device && !device.reupload)
    throw new AppError('refused', 'end-to-end encryption is already on for this account on this device');
  if (!device) {
    if (current.keyring)
      throw new AppError(
        'refused',
        'this account is already end-to-end encrypted: unlock this device with `memdesk encryption unlock`',
      );
    assertPassphrase(passphrase);
    progress('syncing');
    const before = failed(await deps.syncAll());
    if (before)
      throw new AppError(
        'refused',
        `sync every scope before turning encryption on; nothing was changed (${before})`,
      );
    progress('publishing');
    const made = await createKeyring(passphrase, deps.logN === undefined ? {} : { logN: deps.logN });
    await account.client.updateKeyring(
      { keyring: made.keyring, revision: current.revision },
      AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    );
    device = await writeDeviceKey(deps.keys, origin, made.master, true);
    recoveryCode = made.recoveryCode;
  } else if (!current.keyring || current.keyring.keyId !== device.keyId) {
    throw new EncryptionError('tampered', 'the keyring on the sync server is not the one this device made');
  } else {
    // Resuming: the passphrase must still be the account's.
    await unlockWithPassphrase(current.keyring, passphrase);
  }
  deps.accounts.reset();
  let uploaded = 0;
  const counted = (changes: number): void => {
    uploaded += changes;
    progress('uploading', uploaded);
  };
  progress('uploading');
  deps.accounts.sealedCommits.add(counted);
  let scopes: ScopeRun[];
  try {
    scopes = await deps.syncAll();
  } finally {
    deps.accounts.sealedCommits.delete(counted);
  }
  let purgedObjects = 0;
  if (!failed(scopes)) {
    progress('removing', uploaded);
    account = await signedIn(deps);
    const now = await serverKeyring(account);
    const done = await account.client.updateKeyring(
      { keyring: now.keyring!, revision: now.revision, purgePlaintext: true },
      AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    );
    purgedObjects = done.purgedObjects;
    await writeDeviceKey(deps.keys, origin, masterOf(device), false);
  }
  return { recoveryCode, keyId: device.keyId, scopes, purgedObjects };
}

/** `encryption unlock`: a wrong passphrase or code throws before anything is written. */
export async function unlockEncryption(
  deps: EncryptionDeps,
  secret: { passphrase?: string | undefined; recoveryCode?: string | undefined },
) {
  const account = await signedIn(deps);
  const { keyring } = await serverKeyring(account);
  if (!keyring) throw new AppError('refused', 'this account is not end-to-end encrypted; nothing to unlock');
  let master: Uint8Array;
  if (secret.passphrase !== undefined) master = await unlockWithPassphrase(keyring, secret.passphrase);
  else if (secret.recoveryCode !== undefined) master = unlockWithRecoveryCode(keyring, secret.recoveryCode);
  else throw new AppError('invalid_input', 'give the passphrase or the recovery code');
  const device = await writeDeviceKey(deps.keys, account.origin, master, false);
  deps.accounts.reset();
  return { keyId: device.keyId, scopes: await deps.syncAll() };
}

/** `encryption change-passphrase`: re-wraps the master key; nothing else changes. */
export async function changeEncryptionPassphrase(
  deps: EncryptionDeps,
  passphrase: string,
  newPassphrase: string,
) {
  const account = await signedIn(deps);
  const current = await serverKeyring(account);
  if (!current.keyring) throw new AppError('refused', 'this account is not end-to-end encrypted');
  assertPassphrase(newPassphrase);
  const master = await unlockWithPassphrase(current.keyring, passphrase);
  const keyring = await changePassphrase(
    current.keyring,
    master,
    newPassphrase,
    deps.logN === undefined ? {} : { logN: deps.logN },
  );
  await account.client.updateKeyring(
    { keyring, revision: current.revision },
    AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  );
  return { keyId: keyring.keyId };
}
