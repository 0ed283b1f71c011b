import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/ipc-contract.js';

/** Menu labels in the app's two languages (the OS locale picks; the page can switch its own). */
const LABELS = {
  en: {
    file: 'File',
    newNote: 'New Note',
    open: 'Open Project Folder…',
    recent: 'Open Recent',
    clearRecent: 'Clear Recent',
    none: 'No recent projects',
    save: 'Save',
    close: 'Close Window',
    edit: 'Edit',
    find: 'Find',
    view: 'View',
    sync: 'Sync',
    syncNow: 'Sync Now',
    window: 'Window',
  },
  zh: {
    file: '文件',
    newNote: '新建笔记',
    open: '打开项目文件夹…',
    recent: '最近打开',
    clearRecent: '清除最近记录',
    none: '没有最近的项目',
    save: '保存',
    close: '关闭窗口',
    edit: '编辑',
    find: '查找',
    view: '视图',
    sync: '同步',
    syncNow: '立即同步',
    window: '窗口',
  },
};

export interface MenuActions {
  command(command: MenuCommand): void;
  openProjectDialog(): void;
  openRecent(root: string): void;
  clearRecent(): void;
}

export function buildMenu(opts: {
  locale: string;
  recent: readonly string[];
  isMac: boolean;
  isDev: boolean;
  actions: MenuActions;
}): Menu {
  const l = opts.locale.toLowerCase().startsWith('zh') ? LABELS.zh : LABELS.en;
  const a = opts.actions;
  const recentItems: MenuItemConstructorOptions[] = opts.recent.length
    ? [
        ...opts.recent.map((root) => ({ label: root, click: () => a.openRecent(root) })),
        { type: 'separator' as const },
        { label: l.clearRecent, click: () => a.clearRecent() },
      ]
    : [{ label: l.none, enabled: false }];
  const template: MenuItemConstructorOptions[] = [
    ...(opts.isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: l.file,
      submenu: [
        { label: l.newNote, accelerator: 'CmdOrCtrl+N', click: () => a.command('note.new') },
        { label: l.open, accelerator: 'CmdOrCtrl+O', click: () => a.openProjectDialog() },
        { label: l.recent, submenu: recentItems },
        { type: 'separator' },
        { label: l.save, accelerator: 'CmdOrCtrl+S', click: () => a.command('note.save') },
        { type: 'separator' },
        { label: l.close, accelerator: 'CmdOrCtrl+W', role: 'close' },
        ...(opts.isMac ? [] : [{ role: 'quit' as const }]),
      ],
    },
    {
      label: l.edit,
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        { label: l.find, accelerator: 'CmdOrCtrl+F', click: () => a.command('find') },
      ],
    },
    {
      label: l.view,
      submenu: [
        ...(opts.isDev
          ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }]
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: l.sync,
      submenu: [{ label: l.syncNow, accelerator: 'CmdOrCtrl+Shift+Y', click: () => a.command('sync.now') }],
    },
    { label: l.window, role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
