import { z } from 'zod';
import {
  SEALED_PROTOCOL_VERSION,
  SyncKeyringSchema,
  type KeyringResponse,
  type KeyringUpdateRequestSchema,
  type KeyringUpdateResponse,
} from '../../shared/sync-protocol.js';
import type { Caller, ServerDeps } from '../context.js';
import { keyringKey, plaintextPrefixes } from '../storage-keys.js';
import { PreconditionFailedError } from '../storage/storage.js';
import { SyncError } from '../sync-error.js';

type KeyringUpdateRequest = z.output<typeof KeyringUpdateRequestSchema>;

/** keyring.json: the client's keyring as sent, and a revision for compare-and-swap. */
const StoredKeyringSchema = z.object({ revision: z.number().int().positive(), keyring: SyncKeyringSchema });
type StoredKeyring = z.infer<typeof StoredKeyringSchema>;

/**
 * End-to-end encryption on the server: it keeps the keyring (which it cannot open), and once an
 * account has one, serves only sealed requests of protocol 3 for it — an older app gets
 * `upgrade_required`, an app not yet unlocked `account_encrypted` — so no device can upload a
 * readable note or be shown an empty unencrypted scope and take it for deletions. Encryption
 * cannot be switched off, so an account seen encrypted is remembered for the process.
 */
export class AccountEncryption {
  private readonly encrypted = new Set<string>();

  constructor(private readonly deps: ServerDeps) {}

  private async load(sub: string): Promise<{ stored: StoredKeyring | null; etag: string | null }> {
    const found = await this.deps.storage.get(keyringKey(sub));
    if (!found) return { stored: null, etag: null };
    const parsed = StoredKeyringSchema.safeParse(safeJson(found.body.toString('utf8')));
    if (!parsed.success) throw new Error(`the keyring ${keyringKey(sub)} is damaged`);
    this.encrypted.add(sub);
    return { stored: parsed.data, etag: found.etag };
  }

  async isEncrypted(sub: string): Promise<boolean> {
    return this.encrypted.has(sub) || (await this.load(sub)).stored !== null;
  }

  /** Checked before a snapshot or commit reads or writes anything. */
  async requireAccess(caller: Caller, sealed: boolean): Promise<void> {
    if (sealed) {
      if (caller.protocol < SEALED_PROTOCOL_VERSION)
        throw new SyncError('invalid_request', `"sealed" needs sync protocol ${SEALED_PROTOCOL_VERSION}.`);
      if (!(await this.isEncrypted(caller.sub)))
        throw new SyncError(
          'invalid_request',
          'This account has no keyring: turn end-to-end encryption on before sending sealed notes.',
        );
      return;
    }
    if (!(await this.isEncrypted(caller.sub))) return;
    if (caller.protocol < SEALED_PROTOCOL_VERSION)
      throw new SyncError(
        'upgrade_required',
        'This account is end-to-end encrypted, which this version of the app cannot sync. Update the app.',
        this.deps.protocol,
      );
    throw new SyncError(
      'account_encrypted',
      'This account is end-to-end encrypted: unlock this device with the passphrase (memdesk encryption unlock) to sync.',
    );
  }

  async get(caller: Caller): Promise<KeyringResponse> {
    requireSealedProtocol(caller);
    const { stored } = await this.load(caller.sub);
    return { keyring: stored?.keyring ?? null, revision: stored?.revision ?? 0, limits: caller.limits };
  }

  async update(caller: Caller, request: KeyringUpdateRequest): Promise<KeyringUpdateResponse> {
    requireSealedProtocol(caller);
    const { stored, etag } = await this.load(caller.sub);
    const revision = stored?.revision ?? 0;
    if (revision !== request.revision || (stored && stored.keyring.keyId !== request.keyring.keyId)) {
      throw new SyncError(
        'manifest_changed',
        stored && stored.keyring.keyId !== request.keyring.keyId
          ? 'This account already has another encryption key; unlock with its passphrase instead.'
          : 'The keyring changed on another device; read it again.',
        { currentVersion: revision, rejected: [] },
      );
    }
    const next: StoredKeyring = { revision: revision + 1, keyring: request.keyring };
    try {
      await this.deps.storage.put(
        keyringKey(caller.sub),
        JSON.stringify(next),
        etag === null ? { ifNoneMatch: '*' } : { ifMatch: etag },
      );
    } catch (err) {
      if (!(err instanceof PreconditionFailedError)) throw err;
      throw new SyncError('manifest_changed', 'The keyring changed on another device; read it again.', {
        currentVersion: revision,
        rejected: [],
      });
    }
    this.encrypted.add(caller.sub);
    let purgedObjects = 0;
    if (request.purgePlaintext)
      for (const prefix of plaintextPrefixes(caller.sub))
        purgedObjects += await this.deps.storage.deletePrefix(prefix);
    return { revision: next.revision, purgedObjects, limits: caller.limits };
  }
}

function requireSealedProtocol(caller: Caller): void {
  if (caller.protocol < SEALED_PROTOCOL_VERSION)
    throw new SyncError('invalid_request', `The keyring needs sync protocol ${SEALED_PROTOCOL_VERSION}.`);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
