import path from 'node:path';
import { AppError } from '../../../shared/errors.js';

/**
 * The CLI the desktop app ships. The packaged app carries the `memdesk` bundle inside app.asar
 * (`.vite/cli/`, beside the main process's `.vite/build/`: electron-builder.yml `files`, forge's
 * prePackage hook), where ASAR integrity covers it. The Electron fuse RunAsNode stays off
 * (docs/security.md), so `ELECTRON_RUN_AS_NODE=1` cannot run it; instead the app's own executable
 * runs it when its first argument is APP_CLI_FLAG (electron/main/cli-mode.ts): no window, stdio
 * is the CLI's, the exit code is the CLI's. What setup writes from inside the app is therefore
 * `<the app's executable> --memdesk-cli …`.
 */
export const APP_CLI_FLAG = '--memdesk-cli';

/** Where the CLI bundle lies relative to the main process's own directory (`.vite/build/`). */
export const APP_CLI_DIR_FROM_MAIN = path.join('..', 'cli');

export function bundledCliEntry(mainDir: string): string {
  return path.join(mainDir, APP_CLI_DIR_FROM_MAIN, 'memdesk.js');
}

/**
 * The CLI's arguments when the app was started as the CLI (`<exe> --memdesk-cli mcp`; in
 * development `electron . --memdesk-cli mcp`), else null. Only right after the executable (or the
 * app path in development), so a project folder or a file named like the flag never switches it.
 */
export function appCliArgs(argv: readonly string[], packaged: boolean): string[] | null {
  const at = packaged ? 1 : 2;
  return argv[at] === APP_CLI_FLAG ? argv.slice(at + 1) : null;
}

export interface AppLayout {
  platform: NodeJS.Platform;
  /** process.execPath of the packaged app. */
  execPath: string;
  env: Record<string, string | undefined>;
}

/**
 * The path a harness can run the packaged app by, for each way it is installed:
 * - macOS `.app`: `…/Memory Desk.app/Contents/MacOS/Memory Desk`. A copy started from a disk image
 *   or the Downloads folder runs from a randomised read-only location (App Translocation) that is
 *   gone after the app quits: refused, with what to do.
 * - Windows (nsis): `…\Memory Desk\Memory Desk.exe`, where it was installed.
 * - Linux AppImage: the executable runs from a mount that exists only while it runs; the AppImage
 *   file itself (`$APPIMAGE`) is what starts it again.
 * - Linux deb: `/opt/Memory Desk/memory-desk`.
 */
export function appExecutable(layout: AppLayout): string {
  const { platform, execPath, env } = layout;
  if (platform === 'linux' && env.APPIMAGE) return env.APPIMAGE;
  if (platform === 'darwin' && execPath.includes('/AppTranslocation/')) {
    throw new AppError(
      'unavailable',
      'Memory Desk is running from a temporary location macOS gave it (App Translocation), which is gone once it quits: ' +
        'move Memory Desk to the Applications folder, open it from there, and connect the agent again.',
    );
  }
  return execPath;
}

/** The command that runs the app's bundled CLI: the app's executable and the flag. */
export function appCliCommand(layout: AppLayout): string[] {
  return [appExecutable(layout), APP_CLI_FLAG];
}
