import { dialog, type BrowserWindow } from 'electron';
import type { ArchiveDialogs } from '../transports/ipc/archive-dialogs.js';

/** Electron's save / open dialogs for export and import (the logic: transports/ipc/archive-dialogs.ts). */
export function archiveDialogs(window: () => BrowserWindow | null): ArchiveDialogs {
  const zip = [{ name: 'Zip archive', extensions: ['zip'] }];
  return {
    async chooseSaveFile(defaultName) {
      const options = { title: 'Export notes', defaultPath: defaultName, filters: zip };
      const win = window();
      const r = await (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options));
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseZipFile() {
      const options = { title: 'Import notes', filters: zip, properties: ['openFile' as const] };
      const win = window();
      const r = await (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options));
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
  };
}
