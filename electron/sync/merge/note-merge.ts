import { canonicalContent } from '../../../shared/content-hash.js';
import type { NoteContent } from '../../../shared/note.js';
import { AppError } from '../../../shared/errors.js';
import { normalizeNewlines } from '../../../shared/note-format.js';
import { mergeExtra } from './extra-merge.js';
import { mergeTags } from './tag-merge.js';
import { mergeText, mergeTextWithoutBase } from './text-merge.js';
import type { ConflictReason, MergeOptions, NoteMergeResult } from './types.js';
import { utf8Length } from './utf8-length.js';

/** Whether two versions have the same content as the content hash sees it (null = deleted). */
export function sameContent(x: NoteContent | null, y: NoteContent | null): boolean {
  if (x === null || y === null) return x === y;
  return canonicalContent(x) === canonicalContent(y);
}

/**
 * Reconciles one note against its last synced version (R-SYNC-MERGE). `null` is a note that is
 * deleted (or never existed) on that side; `base` null means there is no baseline copy. Pure.
 * Returned content has LF newlines and only the content fields (foreign keys merged key by key).
 */
export function mergeNote(
  base: NoteContent | null,
  local: NoteContent | null,
  cloud: NoteContent | null,
  opts: MergeOptions = {},
): NoteMergeResult {
  const limit = opts.maxBodyBytes;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
    throw new AppError(
      'invalid_input',
      `maxBodyBytes must be a whole number of bytes, 0 or more (got ${String(limit)})`,
    );
  }
  const localChanged = !sameContent(base, local);
  const cloudChanged = !sameContent(base, cloud);
  if (sameContent(local, cloud))
    return { kind: 'unchanged', content: normal(local), baseChanged: localChanged };
  if (!localChanged) return { kind: 'take-cloud', content: normal(cloud), overridesDelete: false };
  if (!cloudChanged) return { kind: 'take-local', content: normal(local), overridesDelete: false };

  // Both changed, differently. An edit against a delete keeps the edit.
  if (local === null) return { kind: 'take-cloud', content: normal(cloud), overridesDelete: true };
  if (cloud === null) return { kind: 'take-local', content: normal(local), overridesDelete: true };

  if (base === null) {
    const body = mergeTextWithoutBase(local.body, cloud.body);
    const draft = content(
      local.summary,
      local.type,
      mergeTags([], local.tags, cloud.tags),
      body.text,
      mergeExtra(undefined, local.extra, cloud.extra),
    );
    return { kind: 'conflict', reasons: ['no_base'], draft, hunks: body.clean ? [] : body.hunks };
  }

  const reasons: ConflictReason[] = [];
  const summary = pick(base.summary, local.summary, cloud.summary);
  if (!summary.merged) reasons.push('summary');
  const type = pick(base.type, local.type, cloud.type);
  if (!type.merged) reasons.push('type');
  const tags = mergeTags(base.tags, local.tags, cloud.tags);
  const body = mergeText(base.body, local.body, cloud.body);
  if (!body.clean) reasons.push('body');
  const merged = content(
    summary.value,
    type.value,
    tags,
    body.text,
    mergeExtra(base.extra, local.extra, cloud.extra),
  );

  if (reasons.length > 0)
    return { kind: 'conflict', reasons, draft: merged, hunks: body.clean ? [] : body.hunks };
  // The merge may come out as one side exactly (the other side's change was already in it).
  if (sameContent(merged, local))
    return { kind: 'take-local', content: normal(local), overridesDelete: false };
  if (sameContent(merged, cloud))
    return { kind: 'take-cloud', content: normal(cloud), overridesDelete: false };
  if (limit !== undefined && utf8Length(merged.body) > limit) {
    return { kind: 'conflict', reasons: ['too_large'], draft: merged, hunks: [] };
  }
  return { kind: 'merged', content: merged };
}

/** A field changed on one side comes from that side; changed on both to different values: no merge. */
function pick<T>(base: T, local: T, cloud: T): { merged: boolean; value: T } {
  if (local === cloud || cloud === base) return { merged: true, value: local };
  if (local === base) return { merged: true, value: cloud };
  return { merged: false, value: local };
}

function content(
  summary: string,
  type: NoteContent['type'],
  tags: string[],
  body: string,
  extra: NoteContent['extra'],
): NoteContent {
  return {
    summary,
    ...(type === undefined ? {} : { type }),
    tags,
    body,
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

function normal(note: NoteContent | null): NoteContent | null {
  if (note === null) return null;
  return content(note.summary, note.type, [...note.tags], normalizeNewlines(note.body), note.extra);
}
