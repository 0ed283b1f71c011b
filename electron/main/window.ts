import path from 'node:path';
import { BrowserWindow, screen } from 'electron';
import { APP_ORIGIN, isAppUrl } from './app-protocol.js';
import { loadWindowState, saveWindowState, type WindowState } from './window-state.js';
import { reportedOr } from '../memory/unexpected-error.js';

/**
 * Where the renderer comes from: Vite's dev server under `npm start`, the built files otherwise,
 * served as app://bundle/ (app-protocol.ts) from `dir`.
 */
export function rendererLocation(mainDir: string): {
  url: string;
  dir: string | null;
  isRendererUrl: (url: string) => boolean;
} {
  if (MAIN_WINDOW_VITE_DEV_SERVER_URL) {
    const origin = new URL(MAIN_WINDOW_VITE_DEV_SERVER_URL).origin;
    return {
      url: MAIN_WINDOW_VITE_DEV_SERVER_URL,
      dir: null,
      isRendererUrl: (u) => safeOrigin(u) === origin,
    };
  }
  return {
    url: `${APP_ORIGIN}/index.html`,
    dir: path.join(mainDir, '..', 'renderer', MAIN_WINDOW_VITE_NAME),
    isRendererUrl: isAppUrl,
  };
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null; // not a URL: no origin to allow
  }
}

export function createMainWindow(opts: { mainDir: string; stateFile: string; url: string }): BrowserWindow {
  const state = loadWindowState(
    opts.stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'Memory Desk',
    backgroundColor: '#f7f7f5',
    webPreferences: {
      preload: path.join(opts.mainDir, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  // Remember the window where the person left it (debounced; written atomically).
  let timer: NodeJS.Timeout | null = null;
  const remember = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      if (win.isDestroyed()) return;
      const b = win.getNormalBounds();
      const next: WindowState = {
        x: b.x,
        y: b.y,
        width: b.width,
        height: b.height,
        maximized: win.isMaximized(),
      };
      void saveWindowState(opts.stateFile, next).catch(reportedOr(undefined, 'window state: save'));
    }, 500);
  };
  win.on('resize', remember);
  win.on('move', remember);
  win.on('maximize', remember);
  win.on('unmaximize', remember);
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    const b = win.getNormalBounds();
    void saveWindowState(opts.stateFile, {
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      maximized: win.isMaximized(),
    }).catch(reportedOr(undefined, 'window state: save'));
  });

  void win.loadURL(opts.url);
  return win;
}
