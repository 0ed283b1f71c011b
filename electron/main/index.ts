import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, shell } from 'electron';
import { defaultHome } from '../memory/core.js';
import { ARCHIVE_CHANNEL } from '../../shared/note-archives.js';
import { handleArchiveRequest } from '../transports/ipc/archive-dialogs.js';
import { bindIpc, EventBroadcaster, makeSenderCheck } from '../transports/ipc/bind.js';
import { pageHandlers } from '../transports/page-methods.js';
import { runCli } from '../transports/cli/run.js';
import { warmFollower } from '../transports/cli/warm-answer.js';
import { createAppRoot } from '../app/app-root.js';
import { ProjectHost } from '../app/project-host.js';
import { appCliArgs } from '../agents/setup/app-cli.js';
import { archiveDialogs } from './archive-dialogs.js';
import { runAppCli } from './cli-mode.js';
import { buildMenu } from './menu.js';
import { secretKeyStore } from './model-key-store.js';
import { loadRecentProjects, pushRecent, saveRecentProjects } from './recent-projects.js';
import { registerAppScheme, serveAppScheme } from './app-protocol.js';
import { hardenSession, hardenWebContents } from './security.js';
import { createSecretStore } from './secret-store.js';
import { startDesktopSync } from './sync-lifecycle.js';
import { secretTokenStore } from './sync-token-store.js';
import { createMainWindow, rendererLocation } from './window.js';
import { reportedOr } from '../memory/unexpected-error.js';

/**
 * The desktop app's lifecycle. Thin on purpose: the core, the handler table and the IPC binding
 * are plain Node modules; this file wires them to Electron's app, window, menu and dialogs.
 */

// This bundle is CommonJS (Forge's Vite plugin, see vite.main.config.ts): __dirname is where main.cjs and preload.cjs live.
const mainDir = __dirname;
const isMac = process.platform === 'darwin';
const isDev = !app.isPackaged;

const cliArgs = appCliArgs(process.argv, app.isPackaged);
if (cliArgs) {
  // Started as the `memdesk` CLI (what `setup` writes into agent harnesses from the packaged app).
  void runAppCli(cliArgs, mainDir);
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  registerAppScheme(); // before ready, as Electron requires
  void run();
}

async function run(): Promise<void> {
  const broadcaster = new EventBroadcaster();
  const home = defaultHome(process.env);
  const secrets = createSecretStore(app.getPath('userData'), {
    onMemoryOnly: (why) =>
      void dialog.showMessageBox({
        type: 'warning',
        title: 'Memory Desk',
        message: 'Secrets are not saved on this system',
        detail: why,
      }),
  });
  // The composition root: one sync coordinator for the process, started with the app; each open
  // project gets 待整理 with the model key in safeStorage and background consolidation.
  const root = createAppRoot({
    home,
    env: process.env,
    // Sync sign-in shows the provider's page in the system browser, never in a window of ours.
    openExternal: (url) => shell.openExternal(url),
    emit: (event) => {
      sync.onEvent(event);
      broadcaster.event(event);
    },
    sync: {
      autoStart: true,
      owner: { role: 'app' },
      tokens: secretTokenStore(secrets),
      keys: secretTokenStore(secrets, 'sync-e2ee-keys'),
    },
    syncOnOpen: true,
    keyStore: secretKeyStore(secrets),
    consolidation: {},
  });
  const host = new ProjectHost(root);
  const sync = startDesktopSync({
    root,
    handlers: () => host.handlers(),
    window: () => win,
    openConflicts: () => {
      if (win) {
        if (win.isMinimized()) win.restore();
        win.show();
        win.focus();
      }
      broadcaster.command('conflicts.open');
    },
  });
  const recentFile = path.join(app.getPath('userData'), 'recent-projects.json');
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  let recent = loadRecentProjects(recentFile);
  let win: BrowserWindow | null = null;
  const renderer = rendererLocation(mainDir);

  // A second launch focuses this window (and opens the folder it was given, if any).
  app.on('second-instance', (_event, argv) => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
    const folder = argv.slice(isDev ? 2 : 1).find((a) => !a.startsWith('-'));
    if (folder) void openProject(path.resolve(folder));
  });

  // One-shot `memdesk recall` / `hook` / `list` / `search` of the open project are answered from
  // here (docs/agents.md "Warm answers").
  const warm = warmFollower({ home, env: process.env, processEnv: process.env, run: runCli, services: root }, () =>
    host.context ? { ctx: host.context, handlers: host.handlers() } : null,
  );

  async function openProject(root: string | undefined): Promise<void> {
    try {
      await host.open(root);
      await warm.follow();
    } catch (err) {
      dialog.showErrorBox('Memory Desk', `Could not open ${root ?? 'your notes'}: ${(err as Error).message}`);
      return;
    }
    if (root) {
      recent = pushRecent(recent, root);
      void saveRecentProjects(recentFile, recent).catch(reportedOr(undefined, 'recent projects: save'));
    }
    refreshMenu();
    sync.coreOpened();
    if (win) win.setTitle(root ? `Memory Desk — ${path.basename(root)}` : 'Memory Desk');
    broadcaster.command('project.changed');
  }

  function refreshMenu(): void {
    Menu.setApplicationMenu(
      buildMenu({
        locale: app.getLocale(),
        recent,
        isMac,
        isDev,
        actions: {
          command: (c) => broadcaster.command(c),
          openProjectDialog: () => void chooseProject(),
          openRecent: (root) => void openProject(root),
          clearRecent: () => {
            recent = [];
            void saveRecentProjects(recentFile, recent).catch(reportedOr(undefined, 'recent projects: save'));
            refreshMenu();
          },
        },
      }),
    );
  }

  async function chooseProject(): Promise<void> {
    const options = {
      title: 'Open a project folder',
      properties: ['openDirectory' as const, 'createDirectory' as const],
    };
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    const folder = result.filePaths[0];
    if (!result.canceled && folder) await openProject(folder);
  }

  await app.whenReady();
  if (renderer.dir) serveAppScheme(renderer.dir);
  hardenSession(MAIN_WINDOW_VITE_DEV_SERVER_URL);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, renderer.isRendererUrl));

  // Open the most recent project, or user notes only on a first start.
  await host.open(recent[0]);
  await warm.follow();
  const isTrustedSender = makeSenderCheck(renderer.isRendererUrl);
  bindIpc(ipcMain, { handlers: () => pageHandlers(host.handlers()), isTrustedSender });
  // Export / import: the person picks the file in the system dialog; the page only names the scope.
  ipcMain.handle(ARCHIVE_CHANNEL, (event, request) =>
    handleArchiveRequest(
      { dialogs: archiveDialogs(() => win), handlers: () => host.handlers(), isTrustedSender, now: Date.now },
      event,
      request,
    ),
  );
  refreshMenu();
  sync.coreOpened();

  const createWindow = () => {
    win = createMainWindow({ mainDir, stateFile, url: renderer.url });
    const off = broadcaster.add(win.webContents);
    // beforeunload with unsaved changes: ask here (a sandboxed page cannot show its own prompt).
    win.webContents.on('will-prevent-unload', (event) => {
      const choice = dialog.showMessageBoxSync(win!, {
        type: 'question',
        buttons: ['Discard changes', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        message: 'The open note has unsaved changes.',
        detail: 'Close anyway and lose them?',
      });
      if (choice === 0) event.preventDefault();
    });
    win.on('closed', () => {
      off();
      win = null;
    });
  };
  createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Close the core cleanly (watchers, locks) before the process goes.
    event.preventDefault();
    quitting = true;
    // Sync first: requests in flight aborted, running rounds finish their atomic writes.
    void sync
      .stop()
      .catch(reportedOr(undefined, 'quit: stop sync'))
      .then(() => warm.stop())
      .then(() => host.close())
      .finally(() => app.quit());
  });
}
