import type { TFunction } from 'i18next';

/**
 * Backups record their reason in English (the core writes it; the CLI shows it). The page shows the
 * known ones in the person's language; an unknown reason is shown as written, under a generic label
 * in languages other than English (the table's `other`).
 */
const KNOWN: ReadonlyArray<[RegExp, string]> = [
  [/^forget$/, 'forget'],
  [/^replaced by restoring backup /, 'restoreReplaced'],
  [/^replaced by "keep mine" in the editor$/, 'keepMine'],
  [/^merge into (.+)$/, 'merge'],
  [/^sync: before merging with the cloud/, 'syncBeforeMergeLocal'],
  [/^sync: before merging with this computer/, 'syncBeforeMergeCloud'],
  [/^sync conflict: took the cloud’s version$/, 'syncTookCloud'],
  [/^sync conflict: took the cloud’s side \(deleted there\)$/, 'syncTookCloudDeleted'],
  [/^sync: deleted on another device$/, 'syncDeletedElsewhere'],
  [/^sync: gone from the cloud/, 'syncGone'],
];

export function backupReasonText(reason: string, t: TFunction): string {
  for (const [re, key] of KNOWN) {
    const m = re.exec(reason);
    if (m) return t(`backupReasons.${key}`, { id: m[1] ?? '' });
  }
  return t('backupReasons.other', { reason });
}
