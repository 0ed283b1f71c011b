/** Git-style conflict markers written into hand-merge drafts (documented in docs/merge.md). */
export const MARKER_LOCAL = '<<<<<<< this computer';
export const MARKER_BASE = '||||||| last synced';
export const MARKER_SEPARATOR = '=======';
export const MARKER_CLOUD = '>>>>>>> cloud';
