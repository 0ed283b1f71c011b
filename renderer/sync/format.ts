/** Small formatters for the sync panel. */
export function formatTime(ms: number | null, locale: string): string | null {
  if (ms === null) return null;
  return new Date(ms).toLocaleString(locale.startsWith('zh') ? 'zh-CN' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

export function formatClock(ms: number, locale: string): string {
  return new Date(ms).toLocaleTimeString(locale.startsWith('zh') ? 'zh-CN' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}
