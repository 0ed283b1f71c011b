import { contentHash, legacyContentHash } from '../../../shared/content-hash.js';
import { serializeNote } from '../../../shared/note-format.js';
import type { Note } from '../../../shared/note.js';
import { noteIdKey } from '../../../shared/note-id.js';
import { effectiveLimits } from '../../../shared/sync-protocol.js';
import type { StoredNote } from '../../memory/types.js';
import type { ConflictKind } from '../baseline-store.js';
import { mergeNote } from '../merge/index.js';
import { contentFields, contentOfStored, noteFromContent, noteOfId, utf8Bytes } from '../note-content.js';
import { scoped } from '../scope-labels.js';
import type { LocalOnlyNote } from '../../../shared/api/sync.js';
import { objectKey } from './object-key.js';
import type { PlanInput, PushPlan, RoundPlan } from './types.js';

/**
 * Step 4 of a round (docs/sync-engine.md, "A round"): per note id over this computer ∪ the
 * baseline ∪ the cloud, what to push, what to pull, what is a conflict, and what stays here and
 * why. Pure: no I/O, no clock — the inputs carry every text the decisions need, and the outputs say
 * which copies and backups the later steps must write. Then the fail-safe and the plan's limits.
 */

/**
 * The fail-safe asks before the deletions of a window (both directions) pass this many notes and
 * half of the scope's.
 */
export const MASS_DELETE_MIN = 10;

export function planRound(input: PlanInput): RoundPlan {
  const { scope, now: t, locals, baseline, cloud, limits, texts } = input;
  const base: Record<string, string> = { ...baseline.base };
  const entries = cloud.entries;
  const plan: RoundPlan = {
    base,
    heldIds: [],
    retain: [],
    pushes: [],
    pulls: [],
    conflicts: {},
    notices: [],
    localOnly: [],
    pendingDeletes: null,
    deleteWindow: { total: 0, deleted: 0 },
    objects: [],
    backups: [],
    missingBodies: false,
    deletedWhileLost: {},
    decidedWhileLost: {},
  };
  const { pushes, pulls, notices } = plan;
  const effective = limits ? effectiveLimits(limits) : null;
  const mergeOptions = effective ? { maxBodyBytes: effective.noteBytes } : {};

  const localKeys = new Map<string, string>();
  for (const id of locals.keys()) localKeys.set(noteIdKey(id), id);

  const snapshotByHash = new Map<string, string>();
  for (const [key, text] of texts.snapshot)
    snapshotByHash.set(key.slice(key.lastIndexOf('\u0000') + 1), text);
  /**
   * The cloud's file of note `id` at `hash`: the snapshot's own, else the same content under
   * another id (a twin: the snapshot's, a baseline copy, a note here) given this note's id.
   */
  const cloudText = (id: string, hash: string): string | null => {
    const exact = texts.snapshot.get(objectKey(id, hash));
    if (exact !== undefined) return exact;
    let twin = snapshotByHash.get(hash) ?? texts.baseline.get(hash) ?? null;
    if (twin === null) for (const n of locals.values()) if (n.hash === hash) twin = contentOfStored(n);
    return twin === null ? null : asNote(twin, id, t);
  };

  const conflict = (
    id: string,
    kind: ConflictKind,
    message: string,
    baseHash: string | null,
    local: StoredNote | undefined,
    cloudHash: string | null,
    text: string | null,
  ): void => {
    // The versions a conflict shows are kept as copies until it is resolved.
    if (local) plan.objects.push({ hash: local.hash, content: contentOfStored(local) });
    if (cloudHash && text !== null) plan.objects.push({ hash: cloudHash, content: text });
    const previous = baseline.conflicts[id];
    const localHash = local?.hash ?? null;
    const same =
      previous &&
      previous.localHash === localHash &&
      previous.cloudHash === cloudHash &&
      previous.baseHash === baseHash;
    plan.conflicts[id] = same
      ? previous
      : { id, kind, message, detectedAt: t, baseHash, localHash, cloudHash };
  };
  const unreadableCloud = (id: string): void => {
    notices.push(scoped(scope, `the cloud's version of "${id}" cannot be read; it is left as it is here`));
  };

  const ids = new Set<string>([...locals.keys(), ...Object.keys(baseline.base), ...Object.keys(entries)]);
  for (const id of [...ids].sort()) {
    const local = locals.get(id);
    // On disk but not loaded: not a deletion, and nothing is written over a file we could not read.
    // The baseline stays, so once the file is fixed the note syncs as a three-way case again.
    if (!local && input.held.has(noteIdKey(id))) {
      plan.heldIds.push(id);
      const C = entries[id]?.hash ?? null;
      const text = C === null ? null : cloudText(id, C);
      if (C !== null && text !== null) {
        plan.objects.push({ hash: C, content: text });
        plan.retain.push(C);
      }
      continue;
    }
    // A note deleted here around a loss of history (below) and here again, while the cloud has
    // no record of it: a new note, not the version deleted (else it would read as deleted there).
    const again =
      local !== undefined && input.deletedWhileLost[id] !== undefined && entries[id] === undefined;
    if (again) delete base[id];
    const B = again ? null : (baseline.base[id] ?? null);
    const entry = entries[id];
    // A baseline from before foreign keys were hashed names its version by the old hash: this
    // computer's and the cloud's new hash of that same version count as it (no spurious change).
    const sameAsBase = sameVersionAsBase(B, texts.baseline, t);
    const L = sameAsBase(local?.hash ?? null);
    const C = sameAsBase(entry?.hash ?? null);
    const gone = B !== null && entry === undefined;

    // Deleted here around a loss of the cloud's history (BaselineState.deletedWhileLost): a device
    // that still held the version deleted may upload it again, and nothing in the cloud says it was
    // deleted. That version is deleted again (the baseline kept it: the ordinary delete below);
    // until the person has decided, any other version is a conflict they decide — never a silent
    // return of the note. Their decision (the cloud's side
    // set aside: "keep this computer's", "keep both") is remembered with the versions it set aside
    // (BaselineState.decidedWhileLost): those are deleted again too when a device that had not
    // heard of it uploads one again (seed 20195), and any other version is a note written anew on
    // another device since, planned as usual (seed 20250: without the decision every new version
    // raised the same conflict again and the note never arrived). Remembered until the note is
    // here again.
    const deletedHere = L === null ? input.deletedWhileLost[id] : undefined;
    if (deletedHere !== undefined) {
      const decided = input.decidedWhileLost[id];
      plan.deletedWhileLost[id] = deletedHere;
      if (decided) plan.decidedWhileLost[id] = [...decided];
      // A version the person decided against is deleted again. The version deleted here, back
      // while the baseline no longer holds it (else the ordinary delete below), was uploaded again
      // over a delete the cloud recorded since (or after the person resolved it here): perhaps a
      // person keeping it when asked, perhaps a stale copy. Only the person here can tell: a
      // conflict, never a silent delete (seeds 30314, 32427) nor a silent return.
      if (C !== null && B !== C && (decided?.includes(C) ?? false)) {
        pushes.push(pushOfLocal(id, null, undefined, C));
        continue;
      }
      // Both cases below ask the person, showing the cloud's version beside the delete made here.
      const askOverDelete = (cloudHash: string, why: string): void => {
        const text = cloudText(id, cloudHash);
        if (text === null) plan.missingBodies = true;
        else conflict(id, 'both_changed', scoped(scope, `"${id}" ${why}`), B, local, cloudHash, text);
      };
      if (C === deletedHere && B !== C) {
        askOverDelete(
          C,
          'was deleted here, and another device uploaded it again after it was deleted in the cloud',
        );
        continue;
      }
      // Uploaded over another version of the note (the cloud's entry replaced one), not as a new
      // note: a device's person kept that copy against another when asked, not a stale copy
      // uploaded again — asked, never deleted again silently (seeds 34310, 34595).
      if (C === deletedHere && entry?.replaced !== undefined && entry.replaced !== C) {
        askOverDelete(
          C,
          'was deleted here, and another device uploaded it again over another version of it after the cloud lost part of its history',
        );
        continue;
      }
      if (!decided && C !== null && C !== deletedHere && C !== B) {
        askOverDelete(
          C,
          'was deleted here, and the cloud, which lost part of its history, holds another version of it',
        );
        continue;
      }
      // The cloud has no record of the note: the baseline keeps the version deleted.
      if (entry === undefined) continue;
    }

    // The cloud, after losing history, deleted the note from a version this computer cannot place,
    // and it is unchanged here: the person decides, and the conflict stays until they do (without a
    // base the next round would otherwise upload it as new). So too when a conflict without a base
    // is waiting (this computer's copy could not be placed against the cloud's version) and the
    // cloud has deleted that version since: the copy here may be an old one the deleting person's
    // edits had replaced (seed 33419: uploaded again as new, it brought back what they removed).
    const previous = baseline.conflicts[id];
    if (
      B === null &&
      local &&
      entry?.hash === null &&
      (input.deletedInLostCloud.has(id) || (previous?.baseHash === null && previous.localHash === L))
    ) {
      conflict(
        id,
        'both_changed',
        scoped(
          scope,
          `"${id}" was deleted in the cloud after it lost part of its history, from a version other than this computer's; keep it or let it go`,
        ),
        null,
        local,
        null,
        null,
      );
      continue;
    }
    // A conflict without a base was waiting, and the person deleted this computer's copy since: the
    // cloud's version is no new note here, and the delete was not made from it. The person decides,
    // with the delete as this computer's side (seed 95850: the cloud's old copy, restored from a
    // backup, was pulled back silently over the delete).
    if (B === null && !local && C !== null && previous?.baseHash === null) {
      const text = cloudText(id, C);
      if (text === null) plan.missingBodies = true;
      else
        conflict(
          id,
          'both_changed',
          scoped(
            scope,
            `"${id}" was deleted here while its conflict with the cloud's version waited; keep the cloud's version or let it go`,
          ),
          null,
          undefined,
          C,
          text,
        );
      continue;
    }
    if (L === C) {
      setBase(base, id, L);
      if (L !== null && !baseline.stored.has(L))
        plan.objects.push({ hash: L, content: contentOfStored(local!) });
      continue;
    }
    if (input.typedBlocked && ((local && local.type !== undefined) || entry?.typed)) {
      const message = scoped(
        scope,
        `"${id}" has a type, which this old sync server cannot hold; it stays on this computer until the server is upgraded`,
      );
      notices.push(message);
      if (local) plan.localOnly.push({ id, reason: 'old_server', message });
      continue;
    }
    if (gone) {
      if (L === B)
        pulls.push({ id, localHash: L, cloudHash: null, note: null, content: null, reason: 'gone' });
      else
        conflict(
          id,
          'expired_tombstone',
          scoped(
            scope,
            `"${id}" was deleted on another device long ago (its record expired in the cloud), but it was edited here since`,
          ),
          B,
          local,
          null,
          null,
        );
      continue;
    }
    if (L === B) {
      // Only the cloud changed.
      if (C === null) {
        pulls.push({ id, localHash: L, cloudHash: null, note: null, content: null, reason: 'tombstone' });
        continue;
      }
      const text = cloudText(id, C);
      if (text === null) {
        plan.missingBodies = true;
        continue;
      }
      const note = noteFromContent(text, t);
      if (!note || note.id !== id) {
        unreadableCloud(id);
        continue;
      }
      const otherLocal = localKeys.get(noteIdKey(id));
      if (L === null && otherLocal !== undefined && otherLocal !== id) {
        // The cloud's copy is kept: once the person renames theirs, the next round writes it even
        // when nothing changed in the cloud (an unchanged listing carries no bodies; seed 40451).
        plan.objects.push({ hash: C, content: text });
        plan.retain.push(C);
        notices.push(
          scoped(
            scope,
            `"${id}" from the cloud is not written here: "${otherLocal}" differs only in case, and macOS and Windows cannot hold both — rename one`,
          ),
        );
        continue;
      }
      pulls.push({ id, localHash: L, cloudHash: C, note, content: text, reason: 'pull' });
      continue;
    }
    if (C === B) {
      // Only this computer changed.
      pushes.push(pushOfLocal(id, L, local, C));
      continue;
    }
    // Both changed, differently.
    const cText = C === null ? null : cloudText(id, C);
    if (C !== null && cText === null) {
      plan.missingBodies = true;
      continue;
    }
    const cloudNote = cText === null ? null : noteFromContent(cText, t);
    if (C !== null && !cloudNote) {
      unreadableCloud(id);
      continue;
    }
    const baseText = B === null ? null : (texts.baseline.get(B) ?? null);
    const baseNote = baseText === null ? null : noteFromContent(baseText, t);
    if (B !== null && local && cloudNote && !baseNote) {
      conflict(
        id,
        'no_base',
        scoped(
          scope,
          `"${id}" changed here and in the cloud, and the copy of its last synced version is missing`,
        ),
        B,
        local,
        C,
        cText,
      );
      continue;
    }
    // Edited here, deleted in the cloud after another device changed the note from this computer's
    // base: the delete's side holds changes this computer never saw (its `replaced` is not B), and
    // "an edit beats a delete" would bring back whatever they removed (seed 49615: a key an agent
    // removed came back with a merge made before it). Without that version's copy nothing can be
    // merged: the person decides, and the conflict stays until they do.
    if (
      C === null &&
      local &&
      B !== null &&
      !input.sealed &&
      entry?.replaced !== undefined &&
      sameAsBase(entry.replaced) !== B
    ) {
      conflict(
        id,
        'both_changed',
        scoped(
          scope,
          `"${id}" was edited here and deleted in the cloud after another device had changed it; keep this computer's version or let it go`,
        ),
        B,
        local,
        null,
        null,
      );
      continue;
    }
    const result = mergeNote(
      baseNote && contentFields(baseNote),
      local ? contentFields(local) : null,
      cloudNote && contentFields(cloudNote),
      mergeOptions,
    );
    switch (result.kind) {
      case 'unchanged':
        setBase(base, id, L);
        break;
      case 'take-local':
        pushes.push(pushOfLocal(id, L, local, C));
        break;
      case 'take-cloud':
        pulls.push({
          id,
          localHash: L,
          cloudHash: C,
          note: cloudNote,
          content: cText,
          reason: C === null ? 'tombstone' : 'pull',
        });
        break;
      case 'merged': {
        const merged: Note = {
          id,
          ...result.content,
          createdAt: Math.min(local!.createdAt, cloudNote!.createdAt),
          updatedAt: Math.max(t, local!.updatedAt, cloudNote!.updatedAt),
        };
        // Both versions are backed up before a merge.
        plan.backups.push(
          {
            noteId: id,
            content: null,
            fallback: contentOfStored(local!),
            reason: 'sync: before merging with the cloud’s version (this computer’s version)',
            summary: local!.summary,
          },
          {
            noteId: id,
            content: cText!,
            fallback: cText!,
            reason: 'sync: before merging with this computer’s version (the cloud’s version)',
            summary: cloudNote!.summary,
          },
        );
        // The version this computer pushed from: a journal recovery may need it as the common ancestor.
        // (A merge over the size limit is mergeNote's `too_large` conflict: the same body measure.)
        plan.objects.push({ hash: L!, content: contentOfStored(local!) });
        pushes.push({
          id,
          localBefore: L,
          hash: contentHash(merged),
          content: serializeNote(merged),
          bodyBytes: utf8Bytes(merged.body),
          cloudHash: C,
          writeLocally: merged,
          create: false,
        });
        break;
      }
      case 'conflict':
        conflict(
          id,
          conflictKind(result.reasons),
          scoped(
            scope,
            `"${id}" changed here and in the cloud: ${result.reasons.map(reasonText).join(', ')}`,
          ),
          B,
          local,
          C,
          cText,
        );
        break;
    }
  }

  failSafe(input, plan);
  plan.pushes = holdBackUploads(input, plan);
  return plan;
}

/** A note file given the id `id` (same content: the content hash does not include the id). */
/**
 * Maps a hash to `base` when it is the new hash of the base's own version while `base` is that
 * version's old hash (from before foreign frontmatter keys were hashed; see shared/content-hash.ts).
 */
function sameVersionAsBase(
  base: string | null,
  baselineTexts: ReadonlyMap<string, string>,
  now: number,
): (hash: string | null) => string | null {
  const text = base === null ? undefined : baselineTexts.get(base);
  const note = text === undefined ? null : noteFromContent(text, now);
  if (note === null || !note.extra || legacyContentHash(note) !== base) return (hash) => hash;
  const renamed = contentHash(note);
  return (hash) => (hash === renamed ? base : hash);
}

function asNote(text: string, id: string, now: number): string {
  const note = noteFromContent(text, now);
  if (!note || note.id === id) return text;
  return serializeNote({ ...note, id });
}

/** Pushing this computer's version (L, null: deleted here) over the cloud's C. */
function pushOfLocal(
  id: string,
  L: string | null,
  local: StoredNote | undefined,
  C: string | null,
): PushPlan {
  if (L === null)
    return {
      id,
      localBefore: null,
      hash: null,
      content: null,
      bodyBytes: 0,
      cloudHash: C,
      writeLocally: null,
      create: false,
    };
  return {
    id,
    localBefore: L,
    hash: L,
    content: contentOfStored(local!),
    bodyBytes: utf8Bytes(local!.body),
    cloudHash: C,
    writeLocally: null,
    create: C === null,
  };
}

function conflictKind(reasons: readonly string[]): ConflictKind {
  if (reasons.includes('too_large')) return 'too_big';
  if (reasons.includes('no_base')) return 'no_base';
  return 'both_changed';
}

function reasonText(reason: string): string {
  switch (reason) {
    case 'body':
      return 'the same or adjacent lines of the text';
    case 'too_large':
      return 'a merge too big for the plan';
    case 'no_base':
      return 'no copy of the last synced version';
    default:
      return `two different ${reason === 'summary' ? 'summaries' : 'types'}`;
  }
}

/**
 * The fail-safe (docs/sync-engine.md, "Fail-safe"): deletions are counted over a window — since the
 * last confirmed state, in both directions (deleted in the cloud and pulled here, deleted here and
 * pushed) — so 60% as two rounds of 30% asks as one round of 60% does. When this round's deletions
 * would bring the window over half of the scope's notes (and over MASS_DELETE_MIN), none of them
 * happens until the person answers: "delete" lets them through; "keep" uploads the notes the cloud
 * deleted again and writes back here the notes deleted here (from the cloud's copy).
 */
function failSafe(input: PlanInput, plan: RoundPlan): void {
  const pulled = plan.pulls.filter((p) => p.note === null && p.localHash !== null);
  const pushed = plan.pushes.filter((p) => p.hash === null && p.cloudHash !== null);
  const known = new Set<string>([...input.locals.keys(), ...Object.keys(input.baseline.base)]);
  for (const h of input.held.values()) known.add(h.id);
  const windowBefore = input.deleteWindow ?? { total: 0, deleted: 0 };
  const total = Math.max(windowBefore.total, known.size);
  plan.deleteWindow = { total, deleted: windowBefore.deleted };
  const deleted = windowBefore.deleted + pulled.length + pushed.length;
  if (pulled.length + pushed.length === 0) return;
  if (deleted <= MASS_DELETE_MIN || deleted <= total / 2 || input.deleteDecision === 'delete') return;
  if (input.deleteDecision === 'keep') {
    // Deleted in the cloud, kept here: uploaded again, as notes this computer has and the cloud does not.
    for (const p of pulled) {
      const local = input.locals.get(p.id)!;
      delete plan.base[p.id];
      plan.pushes.push({
        id: p.id,
        localBefore: local.hash,
        hash: local.hash,
        content: contentOfStored(local),
        bodyBytes: utf8Bytes(local.body),
        cloudHash: null,
        writeLocally: null,
        create: true,
      });
    }
    // Deleted here, kept: the cloud's version (the last synced one) is written back here.
    for (const p of pushed) {
      const C = p.cloudHash!;
      const text = input.texts.snapshot.get(objectKey(p.id, C)) ?? input.texts.baseline.get(C) ?? null;
      // A baseline copy may name an identical twin's id (the hash leaves the id out): read as p.id.
      const note = text === null ? null : noteOfId(text, p.id, input.now);
      if (!note) {
        plan.missingBodies = true;
        continue;
      }
      plan.pulls.push({ id: p.id, localHash: null, cloudHash: C, note, content: text, reason: 'pull' });
    }
  } else {
    plan.pendingDeletes = { ids: pulled.map((p) => p.id), localIds: pushed.map((p) => p.id), total };
  }
  const heldPulls = new Set(pulled.map((p) => p.id));
  const heldPushes = new Set(pushed.map((p) => p.id));
  plan.pulls = plan.pulls.filter((p) => p.note !== null || !heldPulls.has(p.id));
  plan.pushes = plan.pushes.filter((p) => p.hash !== null || !heldPushes.has(p.id));
}

/** Uploads held back, each with a notice: case collisions, sizes, the plan's note count. */
function holdBackUploads(input: PlanInput, plan: RoundPlan): PushPlan[] {
  const { scope, limits } = input;
  const effective = limits ? effectiveLimits(limits) : null;
  const cloudKeys = new Map<string, string>();
  for (const e of Object.values(input.cloud.entries))
    if (e.hash !== null) cloudKeys.set(noteIdKey(e.id), e.id);
  const accepted: PushPlan[] = [];
  let creates = 0;
  const overPlan: string[] = [];
  const stays = (id: string, reason: LocalOnlyNote['reason'], text: string): void => {
    const message = scoped(scope, text);
    plan.localOnly.push({ id, reason, message });
    if (reason !== 'plan_note_count') plan.notices.push(message);
  };
  for (const p of plan.pushes) {
    if (p.hash !== null && p.content !== null) {
      const otherCloud = cloudKeys.get(noteIdKey(p.id));
      if (p.create && otherCloud !== undefined && otherCloud !== p.id) {
        stays(
          p.id,
          'case_clash',
          `"${p.id}" is not uploaded: the cloud has "${otherCloud}", which differs only in case, and macOS and Windows cannot hold both — rename one`,
        );
        continue;
      }
      // One measure on both sides: UTF-8 bytes of the body (the server caps frontmatter apart).
      if (effective && p.bodyBytes > effective.noteBytes) {
        stays(
          p.id,
          'too_large',
          `"${p.id}" is larger than the sync ${limits?.plan === 'free' ? 'plan' : 'server'} allows (${p.bodyBytes} bytes of body, at most ${effective.noteBytes}); it stays on this computer only`,
        );
        continue;
      }
      if (p.create && effective) {
        if (input.cloud.activeNotes + creates >= effective.notesPerScope) {
          overPlan.push(p.id);
          stays(
            p.id,
            'plan_note_count',
            `"${p.id}" is not uploaded: the ${limits?.plan === 'free' ? 'free plan' : 'sync server'} holds up to ${effective.notesPerScope} notes here; it stays on this computer only`,
          );
          continue;
        }
        creates++;
      }
    }
    accepted.push(p);
  }
  if (overPlan.length > 0 && effective) {
    plan.notices.push(
      scoped(
        scope,
        limits?.plan === 'free'
          ? `your free plan syncs up to ${effective.notesPerScope} notes here; ${overPlan.length} new note(s) stay on this computer only (every note is kept here; deleting always works)`
          : `the sync server holds up to ${effective.notesPerScope} notes here; ${overPlan.length} new note(s) stay on this computer only`,
      ),
    );
  }
  return accepted;
}

export function setBase(base: Record<string, string>, id: string, hash: string | null): void {
  if (hash === null) delete base[id];
  else base[id] = hash;
}
