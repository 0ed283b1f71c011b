/**
 * The pure three-way merge of notes the sync engine calls (R-SYNC-MERGE). No I/O.
 *
 *   mergeNote(base, local, cloud, opts)  one note: fields, tags, body; null = deleted / absent
 *   mergeText(base, local, cloud)        the line-wise body merge (conservative diff3)
 *   mergeTextWithoutBase(local, cloud)   a two-way draft with markers, for `no_base` conflicts
 *   mergeTags(base, local, cloud)        the tag set merge
 *
 * Algorithm and rules: docs/merge.md.
 */
export type {
  ConflictReason,
  MergeOptions,
  NoteMergeResult,
  TextConflict,
  TextMergeResult,
} from './types.js';
export { MARKER_LOCAL, MARKER_BASE, MARKER_SEPARATOR, MARKER_CLOUD } from './markers.js';
export { mergeNote, sameContent } from './note-merge.js';
export { mergeText, mergeTextWithoutBase } from './text-merge.js';
export { mergeTags } from './tag-merge.js';
export { utf8Length } from './utf8-length.js';
