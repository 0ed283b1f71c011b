import type { ComponentType } from 'react';
import { ConnectAgentsPage } from '../agents/ConnectAgentsPage.js';
import { BackupsPage } from '../pages/backups/BackupsPage.js';
import { CleanupPage, useCleanupBadge } from '../pages/cleanup/CleanupPage.js';
import { ConflictsPage, useConflictsBadge } from '../pages/conflicts/ConflictsPage.js';
import { MemoryPage } from '../pages/memory/MemoryPage.js';
import { SyncHeaderSlot, SyncPage } from '../pages/sync/SyncPage.js';

/**
 * The page's sections. To add or fill one: write the page under renderer/pages/<area>/ and add
 * (or edit) one entry here. `useBadge` returns a count for the tab (null hides it).
 */
export interface TabDef {
  id: string;
  /** i18n key of the label. */
  labelKey: string;
  Component: ComponentType;
  useBadge?: () => number | null;
}

export const TABS: readonly TabDef[] = [
  { id: 'memory', labelKey: 'tabs.memory', Component: MemoryPage },
  { id: 'cleanup', labelKey: 'tabs.cleanup', Component: CleanupPage, useBadge: useCleanupBadge },
  { id: 'conflicts', labelKey: 'tabs.conflicts', Component: ConflictsPage, useBadge: useConflictsBadge },
  { id: 'sync', labelKey: 'tabs.sync', Component: SyncPage },
  { id: 'backups', labelKey: 'tabs.backups', Component: BackupsPage },
  { id: 'agents', labelKey: 'tabs.agents', Component: ConnectAgentsPage },
];

/** Components always mounted in the header (status indicators, command handlers such as 立即同步). */
export const HEADER_SLOTS: readonly ComponentType[] = [SyncHeaderSlot];
