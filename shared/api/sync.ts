import { z } from 'zod';
import { NoteSchema, NoteTypeSchema, ScopeSchema } from '../note.js';
import { HeldNoteSchema } from '../held-note.js';
import { SyncStatusCodeSchema } from '../sync-status.js';
import { SignedInSchema } from '../sync-auth.js';
import { defineMethod, NoInputSchema } from './define.js';

/** Cloud sync (R-SYNC): status for the page, 立即同步, 关闭云同步, sign-in, conflicts. */

export const SyncErrorInfoSchema = z.object({
  /** One of shared/sync-status.ts: signed_out, sync_off, rate_limited, offline, confirm_deletes, … */
  code: SyncStatusCodeSchema,
  message: z.string(),
  scope: ScopeSchema,
});

export const PullCountsSchema = z.object({
  added: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
});

export const RoundTotalsSchema = PullCountsSchema.extend({
  rounds: z.number().int().nonnegative(),
  pushed: z.number().int().nonnegative(),
  conflicts: z.number().int().nonnegative(),
});
export type RoundTotals = z.infer<typeof RoundTotalsSchema>;

export const ConflictKindSchema = z.enum([
  'both_changed', // edits on the same or adjacent lines, or two different summaries or types
  'too_big', // the merged note would exceed the plan's or server's size limit
  'no_base', // no copy of the last synced version (e.g. created on both sides with different content)
  'expired_tombstone', // gone from the cloud after the tombstone window, but edited here since
]);

export const ConflictSummarySchema = z.object({
  id: z.string(),
  kind: ConflictKindSchema,
  message: z.string(),
  detectedAt: z.number(),
});

/**
 * A note that stays on this computer only, and why: over the server's or plan's size (body bytes),
 * beyond the plan's note count, an id that differs only in case from a cloud note, a typed note an
 * old server cannot hold, or a commit the server refused for it.
 */
export const LocalOnlyNoteSchema = z.object({
  id: z.string(),
  reason: z.enum(['too_large', 'plan_note_count', 'case_clash', 'old_server', 'refused']),
  message: z.string(),
});
export type LocalOnlyNote = z.infer<typeof LocalOnlyNoteSchema>;

export const ScopeSyncStatusSchema = z.object({
  scope: ScopeSchema,
  /** "Project notes" / "Your own notes". */
  label: z.string(),
  dir: z.string(),
  enabled: z.boolean(),
  signedIn: z.boolean(),
  /** The account and origin this scope is bound to (the first that synced it). */
  boundTo: z.object({ userId: z.string(), origin: z.string() }).nullable(),
  lastSyncedAt: z.number().nullable(),
  /** What the last pull that brought anything brought, and when. */
  lastPull: PullCountsSchema.extend({ at: z.number() }).nullable(),
  error: SyncErrorInfoSchema.nullable(),
  /** A 429 pauses every directory until this time. */
  pausedUntil: z.number().nullable(),
  /** The plan as the server last announced it; limits are null on a paid plan. */
  plan: z
    .object({
      name: z.enum(['free', 'paid']),
      notesPerScope: z.number().nullable(),
      noteBytes: z.number().nullable(),
    })
    .nullable(),
  /** Notes held back from upload and why (plan limits, size, case collisions, an old server). */
  notices: z.array(z.string()),
  /**
   * Files in the folder that are not loaded (malformed, too large, a case twin, skipped by
   * memory.maxNotes, a symbolic link): never synced as deletions; nothing is sent or written for
   * them until the file is fixed.
   */
  held: z.array(HeldNoteSchema),
  /** Notes that stay on this computer only, each with its reason (the last round's). */
  localOnly: z.array(LocalOnlyNoteSchema),
  conflicts: z.array(ConflictSummarySchema),
  /**
   * Fail-safe: most of this scope would be deleted since the last confirmed state; nothing was
   * deleted (here or in the cloud) until confirmed. `here`: of `count`, notes deleted or missing on
   * this computer (the rest were deleted in the cloud).
   */
  pendingDeletes: z
    .object({ count: z.number().int(), total: z.number().int(), here: z.number().int().default(0) })
    .nullable(),
  /**
   * Notes written, edited or deleted here since the last sync and not uploaded yet (conflicts and
   * notes that stay on this computer not counted).
   */
  pendingUploads: z.number().int().nonnegative(),
  /**
   * What the rounds this process ran brought, added up since it started (background rounds
   * included): the page shows the difference since it last looked.
   */
  roundTotals: RoundTotalsSchema,
});
export type ScopeSyncStatus = z.infer<typeof ScopeSyncStatusSchema>;

export const SyncStatusSchema = z.object({
  /** On only when on for every scope shown. */
  enabled: z.boolean(),
  signedIn: z.boolean(),
  origin: z.string().nullable(),
  /** The older of the scopes' last syncs (null when one never synced). */
  lastSyncedAt: z.number().nullable(),
  scopes: z.array(ScopeSyncStatusSchema),
  /**
   * The process of this computer that schedules the home's automatic rounds (one sync owner per
   * home: the app, the web bridge, an MCP server, or a CLI run's last round), null when none runs.
   */
  owner: z
    .object({
      pid: z.number().int(),
      role: z.enum(['app', 'bridge', 'mcp', 'cli']),
      since: z.number(),
      /** The process answering is the owner. */
      thisProcess: z.boolean(),
    })
    .nullable(),
  /**
   * Why notes written here do not sync although sync is set up, and what to do (null: nothing
   * waits). `app_sign_in`: the home is signed in in the desktop app only, whose sign-in no other
   * process can read; notes written by agents while the app is closed wait for it.
   */
  waiting: z
    .object({ reason: z.enum(['app_sign_in']), message: z.string() })
    .nullable()
    .optional(),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

/** One scope's part of `sync --json`. */
export const SyncRoundReportSchema = z.object({
  pulled: PullCountsSchema,
  pushed: z.number().int().nonnegative(),
  conflicts: z.array(z.string()),
  error: z.object({ code: SyncStatusCodeSchema, message: z.string() }).nullable(),
  /** What the round could not do and why (notes held here, not uploaded, not written here). */
  notices: z.array(z.string()),
  held: z.array(HeldNoteSchema),
  localOnly: z.array(LocalOnlyNoteSchema),
  /**
   * The sync server had lost history this round (its data wiped or restored from an older backup):
   * nothing was deleted here, what it lacked was uploaded again (the notices say how much).
   */
  historyReset: z.boolean().default(false),
});
export type SyncRoundReport = z.infer<typeof SyncRoundReportSchema>;
export const SyncNowOutputSchema = z.object({
  scopes: z.object({ project: SyncRoundReportSchema.optional(), user: SyncRoundReportSchema.optional() }),
});
export type SyncNowOutput = z.infer<typeof SyncNowOutputSchema>;

const MergedContentSchema = z.object({
  summary: z.string().trim().min(1, 'a summary is required'),
  type: z.optional(NoteTypeSchema),
  tags: z.array(z.string()).default([]),
  body: z.string(),
});

export const syncApi = {
  'sync.status': defineMethod({
    summary:
      'Cloud sync per scope: on/off, last synced, last pull, errors naming the scope, 429 pause, plan limits, conflicts.',
    input: NoInputSchema,
    output: SyncStatusSchema,
  }),
  'sync.now': defineMethod({
    summary: '立即同步: one sync round for both scopes at once; optionally answer the mass-delete question.',
    input: z.object({ deletes: z.enum(['delete', 'keep']).optional(), scope: z.optional(ScopeSchema) }),
    output: SyncNowOutputSchema,
  }),
  'sync.setEnabled': defineMethod({
    summary:
      '关闭云同步 (false) or turn cloud sync on again (true), for both scopes; off aborts requests in flight.',
    input: z.object({ enabled: z.boolean() }),
    output: SyncStatusSchema,
  }),
  'sync.login': defineMethod({
    summary:
      'Sign in to a sync server: its URL goes to cloud.json, the token to the token store (never plugins.json).',
    input: z.object({ origin: z.string().min(1), token: z.string().min(1) }),
    /** userId: the account the server verified (identity); absent when sync is off (no request then). */
    output: SignedInSchema,
  }),
  'sync.markInUse': defineMethod({
    summary: 'The Memory page is open for this project: keep its notes checked for 30 more minutes.',
    input: NoInputSchema,
    output: z.object({ ok: z.literal(true) }),
  }),
  'sync.logout': defineMethod({
    summary: 'Sign out: forget the token; notes and the sync setting stay.',
    input: NoInputSchema,
    output: z.object({ ok: z.literal(true) }),
  }),
  'sync.conflicts': defineMethod({
    summary: 'Sync conflicts waiting for the person, both scopes.',
    input: NoInputSchema,
    output: z.object({ conflicts: z.array(ConflictSummarySchema.extend({ scope: ScopeSchema })) }),
  }),
  'sync.conflict': defineMethod({
    summary:
      'One conflict with the last synced version, this computer’s, the cloud’s, and the automatic merge draft.',
    input: z.object({ id: z.string().min(1), scope: z.optional(ScopeSchema) }),
    output: z.object({
      id: z.string(),
      scope: ScopeSchema,
      kind: ConflictKindSchema,
      message: z.string(),
      reasons: z.array(z.string()),
      base: z.nullable(NoteSchema),
      local: z.nullable(NoteSchema),
      cloud: z.nullable(NoteSchema),
      draft: MergedContentSchema,
    }),
  }),
  'sync.resolve': defineMethod({
    summary:
      'Resolve a conflict: keep this computer’s, take the cloud’s, keep both (the cloud’s becomes a new note), or merged text. What is set aside is backed up.',
    input: z
      .object({
        id: z.string().min(1),
        scope: z.optional(ScopeSchema),
        keep: z.enum(['local', 'cloud', 'both']).optional(),
        merged: MergedContentSchema.optional(),
      })
      .refine((v) => (v.keep === undefined) !== (v.merged === undefined), {
        message: 'give exactly one of keep or merged',
      }),
    output: z.object({ id: z.string(), scope: ScopeSchema, newId: z.string().optional() }),
  }),
};
