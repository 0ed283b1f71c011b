import { z } from 'zod';

/**
 * The Memory Desk sync protocol (docs/sync-protocol.md is the prose version of this file).
 *
 * Every request is JSON over HTTP, authenticated with `Authorization: Bearer <jwt>` and carrying
 * the protocol version in the `X-Memory-Sync-Protocol` header. Every response carries the server's
 * version in the same header; every JSON response (success or error, once the caller is known)
 * carries `limits`: the server's quotas and the caller's plan limits. The client has no copy of the
 * quotas: it reads them from the last response.
 *
 * Versions: 2 is current (user scope, typed notes). 1 is the protocol of old servers: project scope
 * only and untyped notes only (the content hash of an untyped note is the same in both). A new
 * client talking to a server whose identity says `protocol.current === 1` falls back to version 1
 * for untyped project notes and reports that user notes and typed notes cannot sync until the
 * server is upgraded. A version-1 client talking to this server is refused with `upgrade_required`
 * as soon as it would see or send a typed note or the user scope, instead of failing a checksum.
 */

export const SYNC_PROTOCOL_VERSION = 3;
/** The first version that carries sealed (end-to-end encrypted) scopes: `sealed`, `meta`, the keyring. */
export const SEALED_PROTOCOL_VERSION = 3;
export const SYNC_PROTOCOL_MIN_VERSION = 1;
export const SYNC_PROTOCOL_HEADER = 'x-memory-sync-protocol';

export const SYNC_ROUTES = {
  identity: '/v1/memory/identity',
  snapshot: '/v1/memory/snapshot',
  commit: '/v1/memory/commit',
  erase: '/v1/admin/erase',
  keyring: '/v1/memory/keyring',
  keyringUpdate: '/v1/memory/keyring/update',
} as const;

/** The hash of a note's content: shared/content-hash.ts `contentHash` (sha256, lower-case hex). */
export const ContentHashSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'a content hash is 64 lower-case hex digits');

/** Project ids become one path segment in storage: letters, digits, `_` and `-`, at most 128. */
export const PROJECT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const ProjectIdSchema = z
  .string()
  .regex(
    PROJECT_ID_PATTERN,
    'a project id is 1–128 letters, digits, "_" or "-", starting with a letter or digit',
  );

/** Which memory a request is about. The user is never named here: it is the token's verified `sub`. */
export const SyncScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user') }),
  z.object({ kind: z.literal('project'), projectId: ProjectIdSchema }),
]);
export type SyncScope = z.infer<typeof SyncScopeSchema>;

// ---------------------------------------------------------------------------------------------
// Quotas and plans

/** The server's quotas (defaults in DEFAULT_SYNC_QUOTAS). A lowered quota only blocks growth. */
export const SyncQuotasSchema = z.object({
  /** Active (not deleted) notes per scope. */
  notesPerScope: z.number().int().positive(),
  /** Puts + deletes in one commit request; clients split bigger batches. */
  changesPerCommit: z.number().int().positive(),
  /**
   * UTF-8 bytes of one note's Markdown body (128 KiB of body by default; not the frontmatter,
   * which the server caps separately at 16 KiB per note).
   */
  noteBytes: z.number().int().positive(),
  /** UTF-8 bytes of note contents in one snapshot response; more is paged with `nextCursor`. */
  responseBytes: z.number().int().positive(),
  /** Days a tombstone stays in the manifest before it is dropped. */
  tombstoneDays: z.number().int().positive(),
});
export type SyncQuotas = z.infer<typeof SyncQuotasSchema>;

export const DEFAULT_SYNC_QUOTAS: SyncQuotas = {
  notesPerScope: 5000,
  changesPerCommit: 500,
  noteBytes: 128 * 1024,
  responseBytes: 16 * 1024 * 1024,
  tombstoneDays: 90,
};

export const SyncPlanNameSchema = z.enum(['free', 'paid']);
export type SyncPlanName = z.infer<typeof SyncPlanNameSchema>;

/** A plan's own limits (free plans, from server/memory-entitlements.json); null = no plan limit. */
export const SyncPlanLimitsSchema = z.object({
  notesPerScope: z.number().int().positive().nullable(),
  noteBytes: z.number().int().positive().nullable(),
});
export type SyncPlanLimits = z.infer<typeof SyncPlanLimitsSchema>;

/** Announced in every response. The limit that applies is the smaller of quota and plan limit. */
export const SyncLimitsSchema = z.object({
  plan: SyncPlanNameSchema,
  quota: SyncQuotasSchema,
  planLimits: SyncPlanLimitsSchema,
});
export type SyncLimits = z.infer<typeof SyncLimitsSchema>;

/** The effective per-scope note count and per-note size for these limits. */
export function effectiveLimits(limits: SyncLimits): { notesPerScope: number; noteBytes: number } {
  const { quota, planLimits } = limits;
  return {
    notesPerScope: Math.min(quota.notesPerScope, planLimits.notesPerScope ?? Infinity),
    noteBytes: Math.min(quota.noteBytes, planLimits.noteBytes ?? Infinity),
  };
}

/**
 * The `ent` claim of an access token, as the identity provider writes it. The account is on a
 * paid plan when its own `plan` or the `plan` of any team it belongs to is one of the paid plan
 * names (default: anything other than "free"). Missing or malformed → free.
 *   {"plan": "paid", "teams": [{"id": "team-1", "plan": "free"}]}
 */
export const EntitlementClaimSchema = z.looseObject({
  plan: z.string().optional(),
  teams: z.array(z.looseObject({ id: z.string().optional(), plan: z.string().optional() })).optional(),
});
export type EntitlementClaim = z.infer<typeof EntitlementClaimSchema>;

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * Every error the server answers with, and its HTTP status. The body is
 * `{error: {code, message, details?}, limits?}`; `message` is written for a person.
 */
export const SYNC_ERROR_STATUS = {
  invalid_request: 400,
  protocol_unsupported: 400, // the client is newer than the server: upgrade the server
  unauthorized: 401, // no token, a forged one, or one for the wrong issuer/audience
  token_expired: 401,
  forbidden: 403, // e.g. a user token on an admin route
  not_found: 404, // unknown route
  method_not_allowed: 405,
  manifest_changed: 409, // strict commit: the manifest moved since the version the client checked
  batch_rejected: 409, // strict commit: a note in the batch was rejected, so nothing was applied
  cursor_expired: 409, // snapshot paging: the manifest moved between pages; start again
  account_erased: 410,
  request_too_large: 413,
  too_many_changes: 413, // more puts + deletes than quota.changesPerCommit
  upgrade_required: 426, // the client's protocol is too old for this request
  rate_limited: 429, // with a Retry-After header (seconds) and details.retryAfterSeconds
  internal: 500,
  storage_unavailable: 503, // storage missing, misconfigured or failing: nothing was stored
  busy: 503, // too much contention on one manifest; retry shortly (Retry-After)
  auth_unavailable: 503, // the identity provider's keys (JWKS) cannot be fetched; retry later
  account_encrypted: 409, // the account is end-to-end encrypted: only sealed requests (protocol 3)
} as const;
export type SyncErrorCode = keyof typeof SYNC_ERROR_STATUS;
export const SyncErrorCodeSchema = z.enum(
  Object.keys(SYNC_ERROR_STATUS) as [SyncErrorCode, ...SyncErrorCode[]],
);

export const SyncErrorBodySchema = z.object({
  error: z.object({ code: SyncErrorCodeSchema, message: z.string(), details: z.unknown().optional() }),
  limits: SyncLimitsSchema.optional(),
});
export type SyncErrorBody = z.infer<typeof SyncErrorBodySchema>;

/** Details of `upgrade_required` and `protocol_unsupported`. */
export const ProtocolRangeSchema = z.object({ min: z.number().int(), current: z.number().int() });
export type ProtocolRange = z.infer<typeof ProtocolRangeSchema>;

// ---------------------------------------------------------------------------------------------
// Manifest entries as the client sees them

/** A sealed record (base64url of nonce ‖ ciphertext ‖ tag), stored and returned as sent. */
export const SealedMetaSchema = z
  .string()
  .max(2048)
  .regex(/^[A-Za-z0-9_-]+$/, 'a sealed record is base64url');

/**
 * One note in a scope's manifest. `hash` and `rev` are null for a tombstone (a deleted note,
 * kept `quota.tombstoneDays` after `deletedAt`). `seq` is the manifest version in which the entry
 * last changed, so "changed since version N" is every entry with `seq > N`.
 */
export const SyncEntrySchema = z.object({
  id: z.string(),
  hash: ContentHashSchema.nullable(),
  rev: z.string().nullable(),
  seq: z.number().int().nonnegative(),
  /** UTF-8 bytes of the revision content (0 for a tombstone). */
  size: z.number().int().nonnegative(),
  /** Server time (ms) the note was deleted; only on tombstones. */
  deletedAt: z.number().int().optional(),
  /**
   * The hash this entry's change replaced (the version a put or delete was based on; absent for a
   * create and in entries written before it existed). A client that does not know whether its own
   * push was committed learns from it that the cloud held that push before changing it again.
   */
  replaced: ContentHashSchema.optional(),
  /** True when the note has a `type` (version-1 clients cannot check such hashes). */
  typed: z.boolean().optional(),
  /** Sealed scopes: the client's sealed record of this entry (real id, hash), opaque to the server. */
  meta: SealedMetaSchema.optional(),
});
export type SyncEntry = z.infer<typeof SyncEntrySchema>;

/**
 * A revision's content: the whole note file (shared/note-format.ts `serializeNote`), its frontmatter
 * id equal to `id`, and its contentHash (which the server recomputes for a put, refusing a mismatch).
 * Sealed scopes: the keyed id and hash, and the sealed file, base64url.
 */
export const SyncObjectSchema = z.object({
  id: z.string(),
  rev: z.string(),
  hash: ContentHashSchema,
  content: z.string(),
});
export type SyncObject = z.infer<typeof SyncObjectSchema>;

// ---------------------------------------------------------------------------------------------
// GET /v1/memory/identity

export const IdentityResponseSchema = z.object({
  /** The server-verified `sub` of the token: the account this device syncs as. */
  userId: z.string(),
  protocol: ProtocolRangeSchema,
  server: z.object({ name: z.string(), version: z.string() }),
  limits: SyncLimitsSchema,
});
export type IdentityResponse = z.infer<typeof IdentityResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /v1/memory/snapshot

/** Most hashes a snapshot request's `have` may name. */
export const SNAPSHOT_MAX_HAVE = 20_000;

export const SnapshotRequestSchema = z.object({
  scope: SyncScopeSchema,
  /**
   * The manifest version this client last saw, or null for a full listing. With a version, the
   * server answers `unchanged` if nothing changed, otherwise only entries changed since it (or a
   * full listing when tombstones the client may not know about have been dropped since).
   */
  sinceVersion: z.number().int().nonnegative().nullable(),
  /**
   * Content hashes this client already has: bodies with these hashes are never returned. Send every
   * local hash with a full listing; with `sinceVersion`, send the hashes of notes changed locally
   * since (usually none) — the server only sends bodies of entries changed since anyway.
   */
  have: z.array(ContentHashSchema).max(SNAPSHOT_MAX_HAVE).default([]),
  /** From a previous page's `nextCursor`; the other fields must be the same as on the first page. */
  cursor: z.string().max(2000).nullable().default(null),
  /**
   * The `head` the client got with `sinceVersion` (null: none). If the server's history has another
   * head at that version (its data wiped or restored from a backup, then counted up again), the
   * answer is a full listing with `historyReset` instead of a difference. Older servers ignore it.
   */
  sinceHead: z.string().max(200).nullable().default(null),
  /** Protocol 3: the end-to-end encrypted copy of this scope (keyed ids and hashes, sealed contents). */
  sealed: z.boolean().default(false),
});
export type SnapshotRequest = z.input<typeof SnapshotRequestSchema>;

export const SnapshotResponseSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('unchanged'),
    version: z.number().int().nonnegative(),
    /** This version's head id (absent from older servers and from manifests written before heads). */
    head: z.string().optional(),
    limits: SyncLimitsSchema,
  }),
  z.object({
    /** `changes`: only entries with seq > sinceVersion; `full`: every entry (tombstones included). */
    status: z.enum(['changes', 'full']),
    version: z.number().int().nonnegative(),
    head: z.string().optional(),
    /**
     * True when `sinceVersion` (with `sinceHead`) is not part of this manifest's history: the
     * server's data was wiped or restored from an older backup. What the client had synced and the
     * listing lacks was lost by the cloud, not deleted by anyone.
     */
    historyReset: z.boolean().optional(),
    /** Active notes in the scope now. */
    activeNotes: z.number().int().nonnegative(),
    /** Entries of this page (sorted by id); all pages together list every entry in the answer. */
    entries: z.array(SyncEntrySchema),
    /** Contents of this page's active entries whose hash is not in `have`. */
    objects: z.array(SyncObjectSchema),
    /** Non-null when more pages follow: repeat the request with this cursor. */
    nextCursor: z.string().nullable(),
    limits: SyncLimitsSchema,
  }),
]);
export type SnapshotResponse = z.infer<typeof SnapshotResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /v1/memory/commit

/** Create (`baseHash: null`) or replace (`baseHash`: the hash this client last synced) one note. */
export const CommitPutSchema = SyncObjectSchema.omit({ rev: true }).extend({
  baseHash: ContentHashSchema.nullable(),
  /** Sealed scopes only (and required there): the entry's sealed record. */
  meta: SealedMetaSchema.optional(),
});
export type CommitPut = z.infer<typeof CommitPutSchema>;

/** Delete one note (it becomes a tombstone); `baseHash` is the hash this client last synced. */
export const CommitDeleteSchema = z.object({
  id: z.string(),
  baseHash: ContentHashSchema,
  /** Sealed scopes only (and required there): the tombstone's sealed record. */
  meta: SealedMetaSchema.optional(),
});
export type CommitDelete = z.infer<typeof CommitDeleteSchema>;

export const CommitRequestSchema = z.object({
  scope: SyncScopeSchema,
  puts: z.array(CommitPutSchema).default([]),
  deletes: z.array(CommitDeleteSchema).default([]),
  /**
   * commitFirst batches: the manifest version the client checked. If the manifest is at any other
   * version, or any note in the batch would be rejected, nothing is applied (409).
   */
  strict: z.object({ manifestVersion: z.number().int().nonnegative() }).nullable().default(null),
  /** Protocol 3: commit to the end-to-end encrypted copy of this scope. */
  sealed: z.boolean().default(false),
});
export type CommitRequest = z.input<typeof CommitRequestSchema>;

/** Why one note of a commit was not applied. */
export const COMMIT_REJECTION_CODES = [
  'stale_base', // the note changed (or was created/deleted) since baseHash: fetch and merge
  'id_case_collision', // another note's id differs only in case
  'invalid_id', // shared/note-id.ts noteIdProblem
  'invalid_note', // content does not parse, or its frontmatter id is not `id`
  'hash_mismatch', // contentHash(content) !== hash
  'note_too_large', // over quota.noteBytes (a note already over it may still shrink)
  'scope_full', // quota.notesPerScope active notes already
  'plan_note_too_large', // over the free plan's noteBytes
  'plan_scope_full', // the free plan's notesPerScope reached
  'duplicate_id', // the same id (ignoring case) twice in one request
] as const;
export const CommitRejectionCodeSchema = z.enum(COMMIT_REJECTION_CODES);
export type CommitRejectionCode = z.infer<typeof CommitRejectionCodeSchema>;

export const CommitAppliedSchema = z.object({
  id: z.string(),
  op: z.enum(['put', 'delete']),
  /** The entry now in the manifest (a tombstone after a delete; null: deleting an id it never had). */
  entry: SyncEntrySchema.nullable(),
  /** True when nothing had to change (identical content, or already deleted). */
  unchanged: z.boolean(),
});
export type CommitApplied = z.infer<typeof CommitAppliedSchema>;

export const CommitRejectedSchema = z.object({
  id: z.string(),
  op: z.enum(['put', 'delete']),
  code: CommitRejectionCodeSchema,
  message: z.string(),
  /** The manifest's entry for this id now (null if it has none), so a stale client can catch up. */
  current: SyncEntrySchema.nullable(),
});
export type CommitRejected = z.infer<typeof CommitRejectedSchema>;

export const CommitResponseSchema = z.object({
  /** The manifest version after this commit (unchanged if nothing was applied). */
  version: z.number().int().nonnegative(),
  /** That version's head id (see the snapshot's `head`). */
  head: z.string().optional(),
  activeNotes: z.number().int().nonnegative(),
  applied: z.array(CommitAppliedSchema),
  rejected: z.array(CommitRejectedSchema),
  limits: SyncLimitsSchema,
});
export type CommitResponse = z.infer<typeof CommitResponseSchema>;

/** details of 409 `manifest_changed` / `batch_rejected`. */
export const StrictRejectionDetailsSchema = z.object({
  currentVersion: z.number().int().nonnegative(),
  rejected: z.array(CommitRejectedSchema),
});

// ---------------------------------------------------------------------------------------------
// POST /v1/admin/erase (Authorization: Bearer <OHARNESS_SYNC_ADMIN_KEY>)

export const EraseRequestSchema = z.object({ userId: z.string().min(1).max(512) });
export type EraseRequest = z.infer<typeof EraseRequestSchema>;

export const EraseResponseSchema = z.object({
  userId: z.string(),
  erased: z.literal(true),
  /** Objects removed by this call (0 when a previous call already removed everything). */
  removedObjects: z.number().int().nonnegative(),
});
export type EraseResponse = z.infer<typeof EraseResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Protocol 3: the account's keyring (end-to-end encryption; docs/security.md has the construction)

/**
 * The keyring as the server keeps it: opaque to the server apart from `keyId`; clients validate
 * the rest (electron/sync/crypto/keyring.ts). Its presence marks the account as encrypted.
 */
export const SyncKeyringSchema = z.looseObject({
  format: z.literal(1),
  keyId: z.string().regex(/^[0-9a-f]{32}$/),
});
export type SyncKeyring = z.infer<typeof SyncKeyringSchema>;

/** GET /v1/memory/keyring: the account's keyring and its revision (null: not encrypted). */
export const KeyringResponseSchema = z.object({
  keyring: SyncKeyringSchema.nullable(),
  revision: z.number().int().nonnegative(),
  limits: SyncLimitsSchema,
});
export type KeyringResponse = z.infer<typeof KeyringResponseSchema>;

/**
 * POST /v1/memory/keyring/update: store the keyring if the account's revision is still `revision`
 * (0: none yet), by compare-and-swap; `keyId` cannot change once set (409 `manifest_changed`
 * otherwise). `purgePlaintext`: once every scope is re-uploaded sealed, remove the account's
 * unencrypted scopes from storage.
 */
export const KeyringUpdateRequestSchema = z.object({
  keyring: SyncKeyringSchema.refine((k) => JSON.stringify(k).length <= 4096, 'a keyring is at most 4 KiB'),
  revision: z.number().int().nonnegative(),
  purgePlaintext: z.boolean().default(false),
});
export type KeyringUpdateRequest = z.input<typeof KeyringUpdateRequestSchema>;

export const KeyringUpdateResponseSchema = z.object({
  revision: z.number().int().positive(),
  purgedObjects: z.number().int().nonnegative(),
  limits: SyncLimitsSchema,
});
export type KeyringUpdateResponse = z.infer<typeof KeyringUpdateResponseSchema>;
